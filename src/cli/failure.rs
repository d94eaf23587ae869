//! The one error of the fatal path: the engine could not do its job (exit code 2). Each kind
//! keeps the error underneath it, so the top prints the whole chain — what failed, then each
//! `caused by:` — instead of a message that flattened or dropped the cause.

use std::error::Error as _;
use std::io;

#[derive(Debug, thiserror::Error)]
pub enum Failure {
    /// Described in full by its message; there is no error underneath.
    #[error("{0}")]
    Message(String),
    /// A file, folder or stream could not be read or written.
    #[error("{what}")]
    Io {
        what: String,
        #[source]
        source: io::Error,
    },
    /// A value could not be serialised as JSON.
    #[error("{what}")]
    Json {
        what: String,
        #[source]
        source: serde_json::Error,
    },
    /// A value could not be handed to the template engine.
    #[error("{what}")]
    Template {
        what: String,
        #[source]
        source: tera::Error,
    },
    /// The catalogue could not be loaded at all; its own cause, if any, follows.
    #[error(transparent)]
    Load(#[from] crate::load::Fatal),
    /// Output went to a pipe that was closed early: the run ends quietly (see `output`).
    #[error("standard output was closed by its reader")]
    PipeClosed,
}

impl Failure {
    /// `map_err(Failure::io("cannot create `x`"))`: the I/O error becomes the cause.
    pub fn io(what: impl Into<String>) -> impl FnOnce(io::Error) -> Failure {
        let what = what.into();
        move |source| Failure::Io { what, source }
    }

    /// `map_err(Failure::template("…"))`: the template engine's error becomes the cause.
    pub fn template(what: impl Into<String>) -> impl FnOnce(tera::Error) -> Failure {
        let what = what.into();
        move |source| Failure::Template { what, source }
    }

    /// The message and every cause underneath it, one `caused by:` line each, as the top of
    /// the program prints them.
    pub fn report(&self) -> String {
        let mut out = format!("auditbook: error: {self}\n");
        let mut cause = self.source();
        while let Some(c) = cause {
            out.push_str(&format!("auditbook:   caused by: {c}\n"));
            cause = c.source();
        }
        out
    }

    /// The message and its causes on one line, for a failure that is reported as part of a
    /// larger outcome (a server of a portfolio skipped) rather than ending the run.
    pub fn one_line(&self) -> String {
        let mut out = self.to_string();
        let mut cause = self.source();
        while let Some(c) = cause {
            out.push_str(": ");
            out.push_str(&c.to_string());
            cause = c.source();
        }
        out
    }
}

impl From<io::Error> for Failure {
    fn from(source: io::Error) -> Self {
        Failure::Io {
            what: "cannot write output".into(),
            source,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_report_names_every_cause() {
        let inner = io::Error::new(io::ErrorKind::PermissionDenied, "Zugriff verweigert");
        let f = Failure::io("cannot create `public/checks`")(inner);
        assert_eq!(
            f.report(),
            "auditbook: error: cannot create `public/checks`\n\
             auditbook:   caused by: Zugriff verweigert\n"
        );
        assert_eq!(
            f.one_line(),
            "cannot create `public/checks`: Zugriff verweigert"
        );
    }

    #[test]
    fn a_message_has_no_cause_line() {
        let f = Failure::Message("--portfolio FILE is missing".into());
        assert_eq!(
            f.report(),
            "auditbook: error: --portfolio FILE is missing\n"
        );
    }
}
