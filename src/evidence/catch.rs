//! The catching proxy (`auditbook catch-proxy`): what a started server sends upstream, seen
//! without letting it leave. It runs inside the server's sandbox, on its loopback; the server's
//! `HTTP_PROXY` and `HTTPS_PROXY` point at it. Every request is recorded — method, target, host
//! and User-Agent — and answered `502 Bad Gateway`, so nothing reaches an upstream.
//!
//! An HTTPS request arrives as `CONNECT host:port`, whose own headers seldom carry the
//! User-Agent. The proxy accepts the tunnel and speaks TLS with a certificate for that host,
//! signed by a throwaway authority made when the proxy starts; the server is told to trust it
//! (`SSL_CERT_FILE`, `REQUESTS_CA_BUNDLE`, `NODE_EXTRA_CA_CERTS`), so the request inside the
//! tunnel — with its User-Agent — can be read. A client that does not accept the certificate
//! is recorded with what its `CONNECT` showed.

use serde::{Deserialize, Serialize};
use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// One request the server sent upstream.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Caught {
    pub method: String,
    /// The request target (`https://host/path` for a request read inside a tunnel).
    pub target: String,
    pub host: String,
    pub user_agent: Option<String>,
    /// Whether the request was read inside a TLS tunnel.
    pub tls: bool,
    /// Why the request inside a tunnel could not be read, when it could not.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// The largest request head read.
const HEAD_BYTES: usize = 16 << 10;
/// How long one connection may take to send its head.
const READ_TIME: Duration = Duration::from_secs(5);
/// The proxy ends after this long without a connection (it is also killed with the server).
const IDLE: Duration = Duration::from_secs(900);

/// The answer to every request.
fn bad_gateway() -> Vec<u8> {
    let body = "auditbook caught this request; it went on nowhere\n";
    format!(
        "HTTP/1.1 502 Bad Gateway\r\nContent-Type: text/plain\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
    .into_bytes()
}

/// The proxy that catches a started server's upstream requests, as the sandbox starts it.
#[derive(Clone, Debug)]
pub struct Catch {
    pub port: u16,
    /// Where the caught requests are written; its folder is writable inside the sandbox.
    pub file: PathBuf,
}

/// A catcher prepared for one start, with the throwaway folder of what it catches (removed
/// when this is dropped).
pub struct Prepared {
    pub catch: Catch,
    _dir: tempfile::TempDir,
}

/// A free loopback port and a throwaway folder for one start. Inside the sandbox the loopback
/// is the server's own, so only a start without one can find the port taken; the proxy then
/// fails and nothing is caught, which the evidence says.
pub fn prepare() -> Result<Prepared, String> {
    let port = TcpListener::bind(("127.0.0.1", 0))
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .map_err(|e| format!("cannot find a free loopback port for the catching proxy: {e}"))?;
    let dir = tempfile::Builder::new()
        .prefix("auditbook-caught-")
        .tempdir()
        .map_err(|e| format!("cannot make a folder for the caught requests: {e}"))?;
    let file = dir.path().join("caught.jsonl");
    Ok(Prepared {
        catch: Catch { port, file },
        _dir: dir,
    })
}

/// The throwaway authority's certificate, where a server is told to trust it.
pub fn authority_file(out: &Path) -> PathBuf {
    out.with_extension("ca.pem")
}

/// The request head: the request line and the headers, read up to the blank line.
fn read_head(stream: &mut impl Read) -> Option<String> {
    let mut buf = Vec::new();
    let mut byte = [0u8; 1];
    while buf.len() < HEAD_BYTES {
        match stream.read(&mut byte) {
            Ok(1) => buf.push(byte[0]),
            _ => break,
        }
        if buf.ends_with(b"\r\n\r\n") || buf.ends_with(b"\n\n") {
            break;
        }
    }
    (!buf.is_empty()).then(|| String::from_utf8_lossy(&buf).into_owned())
}

/// The request line's method and target, and the header named `name`.
fn parse(head: &str) -> (String, String, Option<String>, Option<String>) {
    let mut lines = head.lines();
    let mut first = lines.next().unwrap_or("").split_whitespace();
    let method = first.next().unwrap_or("").to_string();
    let target = first.next().unwrap_or("").to_string();
    let mut host = None;
    let mut ua = None;
    for l in lines {
        if let Some((k, v)) = l.split_once(':') {
            let v = Some(v.trim().to_string());
            match k.trim().to_ascii_lowercase().as_str() {
                "host" => host = v,
                "user-agent" => ua = v,
                _ => {}
            }
        }
    }
    (method, target, host, ua)
}

struct Authority {
    issuer: rcgen::CertifiedIssuer<'static, rcgen::KeyPair>,
}

impl Authority {
    fn new() -> Result<Authority, String> {
        let mut params =
            rcgen::CertificateParams::new(Vec::<String>::new()).map_err(|e| e.to_string())?;
        params.is_ca = rcgen::IsCa::Ca(rcgen::BasicConstraints::Unconstrained);
        params.distinguished_name.push(
            rcgen::DnType::CommonName,
            "auditbook catching proxy (throwaway, one run)",
        );
        params.key_usages = vec![
            rcgen::KeyUsagePurpose::KeyCertSign,
            rcgen::KeyUsagePurpose::DigitalSignature,
        ];
        let key = rcgen::KeyPair::generate().map_err(|e| e.to_string())?;
        let issuer = rcgen::CertifiedIssuer::self_signed(params, key).map_err(|e| e.to_string())?;
        Ok(Authority { issuer })
    }

    /// A TLS configuration presenting a certificate for `host`.
    fn config_for(&self, host: &str) -> Result<Arc<rustls::ServerConfig>, String> {
        let key = rcgen::KeyPair::generate().map_err(|e| e.to_string())?;
        let cert = rcgen::CertificateParams::new(vec![host.to_string()])
            .and_then(|p| p.signed_by(&key, &self.issuer))
            .map_err(|e| e.to_string())?;
        let chain = vec![cert.der().clone(), self.issuer.der().clone()];
        let private = rustls::pki_types::PrivateKeyDer::Pkcs8(key.serialize_der().into());
        let provider = Arc::new(rustls::crypto::ring::default_provider());
        rustls::ServerConfig::builder_with_provider(provider)
            .with_safe_default_protocol_versions()
            .map_err(|e| e.to_string())?
            .with_no_client_auth()
            .with_single_cert(chain, private)
            .map(Arc::new)
            .map_err(|e| e.to_string())
    }
}

/// What one connection sent, answered with 502.
fn handle(mut stream: TcpStream, authority: &Authority) -> Option<Caught> {
    let _ = stream.set_read_timeout(Some(READ_TIME));
    let _ = stream.set_write_timeout(Some(READ_TIME));
    let head = read_head(&mut stream)?;
    let (method, target, host, ua) = parse(&head);
    if !method.eq_ignore_ascii_case("CONNECT") {
        let _ = stream.write_all(&bad_gateway());
        return Some(Caught {
            host: host.unwrap_or_default(),
            method,
            target,
            user_agent: ua,
            tls: false,
            note: None,
        });
    }
    let name = target
        .rsplit_once(':')
        .map(|(h, _)| h)
        .unwrap_or(&target)
        .trim_matches(['[', ']'])
        .to_string();
    let outer = Caught {
        method: method.clone(),
        target: target.clone(),
        host: name.clone(),
        user_agent: ua.clone(),
        tls: false,
        note: None,
    };
    if stream
        .write_all(b"HTTP/1.1 200 Connection established\r\n\r\n")
        .is_err()
    {
        return Some(outer);
    }
    let refused = |why: String| {
        Some(Caught {
            note: Some(why),
            ..outer.clone()
        })
    };
    let config = match authority.config_for(&name) {
        Ok(c) => c,
        Err(e) => return refused(format!("no certificate could be made for the host: {e}")),
    };
    let conn = match rustls::ServerConnection::new(config) {
        Ok(c) => c,
        Err(e) => return refused(e.to_string()),
    };
    let mut tls = rustls::StreamOwned::new(conn, stream);
    let Some(inner) = read_head(&mut tls) else {
        return refused(
            "the client did not accept the catching proxy's certificate, so the request inside the tunnel was not seen".into(),
        );
    };
    let (m, path, h, inner_ua) = parse(&inner);
    let _ = tls.write_all(&bad_gateway());
    let _ = tls.flush();
    tls.conn.send_close_notify();
    let _ = tls.flush();
    let host = h.unwrap_or(name);
    Some(Caught {
        target: format!("https://{host}{path}"),
        method: m,
        host,
        user_agent: inner_ua.or(ua),
        tls: true,
        note: None,
    })
}

/// Serve on `127.0.0.1:port` until killed (or idle for long), recording every request in `out`
/// (one JSON object a line, in the order they arrived). The authority's certificate is written
/// next to it (`authority_file`) once the proxy listens, so a start that waits for that file
/// knows the proxy is ready.
pub fn serve(port: u16, out: &Path) -> Result<(), String> {
    let listener = TcpListener::bind(("127.0.0.1", port))
        .map_err(|e| format!("cannot listen on 127.0.0.1:{port}: {e}"))?;
    let authority = Arc::new(Authority::new()?);
    crate::write::file(out, "").map_err(|e| format!("cannot write `{}`: {e}", out.display()))?;
    crate::write::file(&authority_file(out), &authority.issuer.pem())
        .map_err(|e| format!("cannot write the authority's certificate: {e}"))?;
    let caught: Arc<Mutex<Vec<Caught>>> = Arc::new(Mutex::new(Vec::new()));
    let _ = listener.set_nonblocking(true);
    let mut idle = std::time::Instant::now();
    loop {
        match listener.accept() {
            Ok((stream, _)) => {
                idle = std::time::Instant::now();
                let _ = stream.set_nonblocking(false);
                let authority = Arc::clone(&authority);
                let caught = Arc::clone(&caught);
                let out = out.to_path_buf();
                std::thread::spawn(move || {
                    let Some(c) = handle(stream, &authority) else {
                        return;
                    };
                    let Ok(mut all) = caught.lock() else {
                        return;
                    };
                    all.push(c);
                    let text: String = all
                        .iter()
                        .filter_map(|c| serde_json::to_string(c).ok())
                        .map(|l| l + "\n")
                        .collect();
                    let _ = crate::write::file(&out, &text);
                });
            }
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
                if idle.elapsed() > IDLE {
                    return Ok(());
                }
                std::thread::sleep(Duration::from_millis(20));
            }
            Err(e) => return Err(format!("the catching proxy stopped: {e}")),
        }
    }
}

/// The requests recorded in `out` (none when the file is missing; lines that are not records are
/// passed over — the file is written by the proxy alone, inside the sandbox, but is read as
/// untrusted all the same).
pub fn read(out: &Path) -> Option<Vec<Caught>> {
    let text = std::fs::read_to_string(out).ok()?;
    Some(
        text.lines()
            .filter_map(|l| serde_json::from_str::<Caught>(l).ok())
            .collect(),
    )
}

/// The environment that points a server at the proxy and makes it trust the authority.
pub fn environment(port: u16, out: &Path) -> Vec<(String, String)> {
    let proxy = format!("http://127.0.0.1:{port}");
    let ca = authority_file(out).display().to_string();
    let mut env: Vec<(String, String)> = [
        "HTTP_PROXY",
        "HTTPS_PROXY",
        "http_proxy",
        "https_proxy",
        "ALL_PROXY",
        "all_proxy",
    ]
    .iter()
    .map(|k| (k.to_string(), proxy.clone()))
    .collect();
    for k in ["NO_PROXY", "no_proxy"] {
        env.push((k.to_string(), String::new()));
    }
    for k in [
        "SSL_CERT_FILE",
        "REQUESTS_CA_BUNDLE",
        "CURL_CA_BUNDLE",
        "NODE_EXTRA_CA_CERTS",
    ] {
        env.push((k.to_string(), ca.clone()));
    }
    // Node's own fetch reads the proxy variables only when asked to.
    env.push(("NODE_USE_ENV_PROXY".into(), "1".into()));
    env
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_head_is_read_into_method_target_host_and_agent() {
        let (m, t, h, ua) = parse(
            "GET http://api.example/x HTTP/1.1\r\nHost: api.example\r\nUser-Agent: srv/1.2\r\n\r\n",
        );
        assert_eq!(
            (m.as_str(), t.as_str(), h.as_deref(), ua.as_deref()),
            (
                "GET",
                "http://api.example/x",
                Some("api.example"),
                Some("srv/1.2")
            )
        );
        let (m, _, h, ua) = parse("CONNECT api.example:443 HTTP/1.1\r\n\r\n");
        assert_eq!((m.as_str(), h, ua), ("CONNECT", None, None));
    }
}
