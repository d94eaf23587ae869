//! Reading a `text/event-stream` body as it arrives: events are split at blank lines, their
//! `data:` lines joined, comments and other fields skipped. Written here rather than taken
//! from a crate because the probe must bound what it keeps — an event larger than the message
//! limit is dropped and reported, and parsing stops as soon as the awaited response is seen —
//! while stream parsers keep whatever the server sends.

/// Incremental parser state.
#[derive(Default)]
pub struct Events {
    line: Vec<u8>,
    data: Vec<u8>,
    has_data: bool,
    line_over: bool,
    /// Set once an event exceeded the limit.
    pub too_large: Option<usize>,
}

impl Events {
    /// Feed bytes; every complete event's data is passed to `on_event`. `limit` bounds one
    /// event's data (and one line).
    pub fn feed(&mut self, bytes: &[u8], limit: usize, on_event: &mut dyn FnMut(&[u8])) {
        // A line may exceed the data limit by its field name and a little more.
        let line_limit = limit.saturating_add(1024);
        for &b in bytes {
            if b == b'\n' {
                if self.line_over {
                    // The whole event is dropped: part of its data is gone.
                    self.line.clear();
                    self.line_over = false;
                    self.data.clear();
                    self.has_data = false;
                } else {
                    self.end_line(limit, on_event);
                }
            } else if self.line.len() < line_limit {
                self.line.push(b);
            } else {
                self.line_over = true;
                self.too_large = Some(self.line.len());
            }
        }
    }

    /// The stream ended: a last event without its blank line still counts.
    pub fn finish(&mut self, limit: usize, on_event: &mut dyn FnMut(&[u8])) {
        if !self.line.is_empty() {
            self.end_line(limit, on_event);
        }
        self.dispatch(on_event);
    }

    fn end_line(&mut self, limit: usize, on_event: &mut dyn FnMut(&[u8])) {
        let mut line = std::mem::take(&mut self.line);
        if line.last() == Some(&b'\r') {
            line.pop();
        }
        if line.is_empty() {
            self.dispatch(on_event);
            return;
        }
        if line.first() == Some(&b':') {
            return;
        }
        let (field, value) = match line.iter().position(|b| *b == b':') {
            Some(i) => {
                let v = &line[i + 1..];
                (&line[..i], v.strip_prefix(b" ").unwrap_or(v))
            }
            None => (&line[..], &[][..]),
        };
        if field == b"data" {
            if self.has_data {
                self.data.push(b'\n');
            }
            if self.data.len() + value.len() > limit {
                self.too_large = Some(self.data.len() + value.len());
                self.data.clear();
                self.has_data = false;
                return;
            }
            self.data.extend_from_slice(value);
            self.has_data = true;
        }
    }

    fn dispatch(&mut self, on_event: &mut dyn FnMut(&[u8])) {
        if self.has_data {
            on_event(&self.data);
        }
        self.data.clear();
        self.has_data = false;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn events(chunks: &[&str], limit: usize) -> (Vec<String>, Option<usize>) {
        let mut e = Events::default();
        let mut out = Vec::new();
        for c in chunks {
            e.feed(c.as_bytes(), limit, &mut |d| {
                out.push(String::from_utf8_lossy(d).into_owned())
            });
        }
        e.finish(limit, &mut |d| {
            out.push(String::from_utf8_lossy(d).into_owned())
        });
        (out, e.too_large)
    }

    #[test]
    fn priming_events_comments_and_split_chunks() {
        let (out, big) = events(
            &[
                ": ping\n\nid: 1\ndata:\n\nevent: message\nda",
                "ta: {\"a\":\r\ndata: 1}\r\n\r\n",
                "data: last",
            ],
            100,
        );
        assert_eq!(out, vec!["", "{\"a\":\n1}", "last"]);
        assert_eq!(big, None);
        let (out, big) = events(&["data: 0123456789\n\ndata: ok\n\n"], 5);
        assert_eq!(out, vec!["ok"]);
        assert!(big.is_some());
    }
}
