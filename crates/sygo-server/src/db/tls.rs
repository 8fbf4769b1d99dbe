//! TLS to PostgreSQL, set in the database's address as libpq reads it:
//!
//! - `sslmode`: `disable` (plain TCP), `prefer` (the default: TLS when the
//!   server offers it), `require` (TLS or no connection), `verify-ca` (TLS,
//!   and the server's certificate signed by a trusted authority) or
//!   `verify-full` (that, and issued for the host connected to);
//! - `sslrootcert`: the file of the trusted authorities' certificates (PEM),
//!   or `system` for the system's. As with libpq, `prefer` and `require`
//!   check the certificate only when `sslrootcert` is given (as
//!   `verify-ca` does); without it they encrypt but do not authenticate the
//!   server, so a host whose database is reached over a network it does not
//!   trust sets `sslmode=verify-full`.
//!
//! The PostgreSQL client reads neither `sslrootcert` nor the `verify-`
//! modes, so [`split`] takes them out of the address before it is read.
//! Client certificates (`sslcert`, `sslkey`) are not supported.

use std::fmt;
use std::path::PathBuf;
use std::sync::Arc;

use postgres::config::SslMode as ClientSslMode;
use rustls::client::WebPkiServerVerifier;
use rustls::client::danger::{HandshakeSignatureValid, ServerCertVerified, ServerCertVerifier};
use rustls::crypto::{CryptoProvider, verify_tls12_signature, verify_tls13_signature};
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, ServerName, UnixTime};
use rustls::{
    CertificateError, ClientConfig, DigitallySignedStruct, RootCertStore, SignatureScheme,
};
use tokio_postgres_rustls::MakeRustlsConnect;

/// How much TLS the address asks for (libpq's `sslmode`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum SslMode {
    /// Plain TCP.
    Disable,
    /// TLS if the server offers it (the default).
    Prefer,
    /// TLS, or no connection.
    Require,
    /// TLS with a certificate signed by a trusted authority.
    VerifyCa,
    /// That, and the certificate issued for the host's name or address.
    VerifyFull,
}

/// Where the trusted authorities' certificates come from (`sslrootcert`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum RootCert {
    /// A PEM file of one or more certificates.
    File(PathBuf),
    /// The system's certificates (`sslrootcert=system`).
    System,
}

/// The TLS settings of an address.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Tls {
    pub(crate) mode: SslMode,
    pub(crate) root_cert: Option<RootCert>,
}

/// Why the TLS settings cannot be used.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum TlsError {
    /// `sslmode` has a value libpq does not know.
    UnknownMode(String),
    /// A `verify-` mode without `sslrootcert`.
    NoRootCert(&'static str),
    /// The root certificates cannot be read.
    RootCert(String),
    /// The TLS client cannot be set up.
    Setup(String),
}

impl fmt::Display for TlsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TlsError::UnknownMode(mode) => write!(
                f,
                "sslmode={mode} is not one of disable, prefer, require, verify-ca, verify-full"
            ),
            TlsError::NoRootCert(mode) => write!(
                f,
                "sslmode={mode} needs sslrootcert: the file of the certificate of the \
                 authority that signed the server's, or sslrootcert=system"
            ),
            TlsError::RootCert(why) => write!(f, "sslrootcert: {why}"),
            TlsError::Setup(why) => write!(f, "TLS: {why}"),
        }
    }
}

impl Tls {
    /// The mode the PostgreSQL client is given: the `verify-` modes are
    /// `require` to it, the verification being the connector's.
    pub(crate) fn client_mode(&self) -> ClientSslMode {
        match self.mode {
            SslMode::Disable => ClientSslMode::Disable,
            SslMode::Prefer => ClientSslMode::Prefer,
            SslMode::Require | SslMode::VerifyCa | SslMode::VerifyFull => ClientSslMode::Require,
        }
    }

    /// The connector that makes the TLS sessions, checking the server's
    /// certificate as the mode says.
    pub(crate) fn connector(&self) -> Result<MakeRustlsConnect, TlsError> {
        let provider = Arc::new(rustls::crypto::ring::default_provider());
        let verifier: Arc<dyn ServerCertVerifier> = match (&self.root_cert, self.mode) {
            (None, SslMode::VerifyCa) => return Err(TlsError::NoRootCert("verify-ca")),
            (None, SslMode::VerifyFull) => return Err(TlsError::NoRootCert("verify-full")),
            (None, _) => Arc::new(Unauthenticated(provider.clone())),
            (Some(root_cert), mode) => {
                let roots = Arc::new(read_roots(root_cert)?);
                let webpki = WebPkiServerVerifier::builder_with_provider(roots, provider.clone())
                    .build()
                    .map_err(|e| TlsError::Setup(e.to_string()))?;
                if mode == SslMode::VerifyFull {
                    webpki
                } else {
                    Arc::new(ChainOnly(webpki))
                }
            }
        };
        let config = ClientConfig::builder_with_provider(provider)
            .with_safe_default_protocol_versions()
            .map_err(|e| TlsError::Setup(e.to_string()))?
            .dangerous()
            .with_custom_certificate_verifier(verifier)
            .with_no_client_auth();
        Ok(MakeRustlsConnect::new(config))
    }
}

/// Takes the TLS settings out of a database address (a `postgres://` URL or
/// libpq's `key=value` form): the address the PostgreSQL client reads, and
/// the settings.
pub(crate) fn split(url: &str) -> Result<(String, Tls), TlsError> {
    let mut tls = Tls {
        mode: SslMode::Prefer,
        root_cert: None,
    };
    let mut take = |key: &str, value: &str| -> Result<bool, TlsError> {
        match key {
            "sslmode" => {
                tls.mode = match value {
                    "disable" => SslMode::Disable,
                    "prefer" => SslMode::Prefer,
                    "require" => SslMode::Require,
                    "verify-ca" => SslMode::VerifyCa,
                    "verify-full" => SslMode::VerifyFull,
                    other => return Err(TlsError::UnknownMode(other.to_string())),
                };
                Ok(true)
            }
            "sslrootcert" => {
                tls.root_cert = Some(match value {
                    "system" => RootCert::System,
                    file => RootCert::File(PathBuf::from(file)),
                });
                Ok(true)
            }
            _ => Ok(false),
        }
    };
    let rest = if url.starts_with("postgres://") || url.starts_with("postgresql://") {
        let Some((base, query)) = url.split_once('?') else {
            return Ok((url.to_string(), tls));
        };
        let mut kept = Vec::new();
        for pair in query.split('&').filter(|p| !p.is_empty()) {
            let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
            if !take(&percent_decoded(key), &percent_decoded(value))? {
                kept.push(pair);
            }
        }
        if kept.is_empty() {
            base.to_string()
        } else {
            format!("{base}?{}", kept.join("&"))
        }
    } else {
        let mut kept = Vec::new();
        for (text, key, value) in key_values(url) {
            if !take(&key, &value)? {
                kept.push(text);
            }
        }
        kept.join(" ")
    };
    Ok((rest, tls))
}

/// The `key=value` pairs of libpq's other form, each with its text: values
/// may be quoted (`'a b'`, with `\'` and `\\` inside).
fn key_values(text: &str) -> Vec<(&str, String, String)> {
    let bytes = text.as_bytes();
    let mut pairs = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        while i < bytes.len() && bytes[i].is_ascii_whitespace() {
            i += 1;
        }
        if i == bytes.len() {
            break;
        }
        let start = i;
        while i < bytes.len() && bytes[i] != b'=' && !bytes[i].is_ascii_whitespace() {
            i += 1;
        }
        let key = text[start..i].to_string();
        while i < bytes.len() && bytes[i].is_ascii_whitespace() {
            i += 1;
        }
        let mut value = String::new();
        if i < bytes.len() && bytes[i] == b'=' {
            i += 1;
            while i < bytes.len() && bytes[i].is_ascii_whitespace() {
                i += 1;
            }
            if i < bytes.len() && bytes[i] == b'\'' {
                i += 1;
                while i < bytes.len() && bytes[i] != b'\'' {
                    if bytes[i] == b'\\' && i + 1 < bytes.len() {
                        i += 1;
                    }
                    let c = text[i..].chars().next().unwrap_or(' ');
                    value.push(c);
                    i += c.len_utf8();
                }
                i = (i + 1).min(bytes.len());
            } else {
                let from = i;
                while i < bytes.len() && !bytes[i].is_ascii_whitespace() {
                    i += 1;
                }
                value.push_str(&text[from..i]);
            }
        }
        pairs.push((&text[start..i], key, value));
    }
    pairs
}

/// `%XX` escapes of a URL's query decoded (a malformed one is kept as it is).
fn percent_decoded(text: &str) -> String {
    percent_encoding::percent_decode_str(text)
        .decode_utf8_lossy()
        .into_owned()
}

/// The trusted authorities' certificates.
fn read_roots(root_cert: &RootCert) -> Result<RootCertStore, TlsError> {
    let mut roots = RootCertStore::empty();
    match root_cert {
        RootCert::File(path) => {
            let certs = CertificateDer::pem_file_iter(path)
                .map_err(|e| TlsError::RootCert(format!("{}: {e}", path.display())))?;
            for cert in certs {
                let cert =
                    cert.map_err(|e| TlsError::RootCert(format!("{}: {e}", path.display())))?;
                roots
                    .add(cert)
                    .map_err(|e| TlsError::RootCert(format!("{}: {e}", path.display())))?;
            }
            if roots.is_empty() {
                return Err(TlsError::RootCert(format!(
                    "{}: no certificate in the file",
                    path.display()
                )));
            }
        }
        RootCert::System => {
            let found = rustls_native_certs::load_native_certs();
            roots.add_parsable_certificates(found.certs);
            if roots.is_empty() {
                return Err(TlsError::RootCert(
                    "the system has no certificates to trust".to_string(),
                ));
            }
        }
    }
    Ok(roots)
}

/// `verify-ca`: the chain checked, the name not (libpq's meaning).
#[derive(Debug)]
struct ChainOnly(Arc<WebPkiServerVerifier>);

impl ServerCertVerifier for ChainOnly {
    fn verify_server_cert(
        &self,
        end_entity: &CertificateDer<'_>,
        intermediates: &[CertificateDer<'_>],
        server_name: &ServerName<'_>,
        ocsp_response: &[u8],
        now: UnixTime,
    ) -> Result<ServerCertVerified, rustls::Error> {
        match self
            .0
            .verify_server_cert(end_entity, intermediates, server_name, ocsp_response, now)
        {
            Err(rustls::Error::InvalidCertificate(
                CertificateError::NotValidForName | CertificateError::NotValidForNameContext { .. },
            )) => Ok(ServerCertVerified::assertion()),
            other => other,
        }
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        self.0.verify_tls12_signature(message, cert, dss)
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        self.0.verify_tls13_signature(message, cert, dss)
    }

    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.0.supported_verify_schemes()
    }
}

/// `prefer` and `require` without `sslrootcert`: any certificate (libpq's
/// meaning: encrypted, the server not authenticated); the handshake's
/// signatures are still checked.
#[derive(Debug)]
struct Unauthenticated(Arc<CryptoProvider>);

impl ServerCertVerifier for Unauthenticated {
    fn verify_server_cert(
        &self,
        _end_entity: &CertificateDer<'_>,
        _intermediates: &[CertificateDer<'_>],
        _server_name: &ServerName<'_>,
        _ocsp_response: &[u8],
        _now: UnixTime,
    ) -> Result<ServerCertVerified, rustls::Error> {
        Ok(ServerCertVerified::assertion())
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        verify_tls12_signature(
            message,
            cert,
            dss,
            &self.0.signature_verification_algorithms,
        )
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        verify_tls13_signature(
            message,
            cert,
            dss,
            &self.0.signature_verification_algorithms,
        )
    }

    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.0.signature_verification_algorithms.supported_schemes()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_url_without_tls_settings_prefers_tls_and_is_kept() {
        let (rest, tls) = split("postgres://sygo@db.example/games").unwrap();
        assert_eq!(rest, "postgres://sygo@db.example/games");
        assert_eq!(tls.mode, SslMode::Prefer);
        assert_eq!(tls.root_cert, None);
    }

    #[test]
    fn the_settings_are_taken_out_of_a_url_and_the_rest_kept() {
        let (rest, tls) = split(
            "postgresql://sygo:pw@db.example:5433/games?connect_timeout=5&sslmode=verify-full\
             &sslrootcert=%2Fetc%2Fsygo%2Fca.pem&application_name=sygo",
        )
        .unwrap();
        assert_eq!(
            rest,
            "postgresql://sygo:pw@db.example:5433/games?connect_timeout=5&application_name=sygo"
        );
        assert_eq!(tls.mode, SslMode::VerifyFull);
        assert_eq!(
            tls.root_cert,
            Some(RootCert::File("/etc/sygo/ca.pem".into()))
        );
        assert_eq!(tls.client_mode(), ClientSslMode::Require);
        // The address left is one the PostgreSQL client reads.
        assert!(rest.parse::<postgres::Config>().is_ok());
    }

    #[test]
    fn the_settings_are_taken_out_of_the_key_value_form() {
        let (rest, tls) = split(
            "host=db.example user=sygo sslmode = verify-ca sslrootcert='/my certs/ca.pem' dbname=games",
        )
        .unwrap();
        assert_eq!(rest, "host=db.example user=sygo dbname=games");
        assert_eq!(tls.mode, SslMode::VerifyCa);
        assert_eq!(
            tls.root_cert,
            Some(RootCert::File("/my certs/ca.pem".into()))
        );
        let (_, tls) = split("host=db sslmode=require sslrootcert=system").unwrap();
        assert_eq!(tls.root_cert, Some(RootCert::System));
        assert_eq!(tls.client_mode(), ClientSslMode::Require);
        let (_, tls) = split("host=db sslmode=disable").unwrap();
        assert_eq!(tls.client_mode(), ClientSslMode::Disable);
    }

    #[test]
    fn bad_settings_are_named() {
        assert_eq!(
            split("postgres://h/db?sslmode=always").unwrap_err(),
            TlsError::UnknownMode("always".into())
        );
        let (_, tls) = split("postgres://h/db?sslmode=verify-full").unwrap();
        let e = tls.connector().err().unwrap();
        assert_eq!(e, TlsError::NoRootCert("verify-full"));
        assert!(e.to_string().contains("sslrootcert"), "{e}");
        let (_, tls) =
            split("postgres://h/db?sslmode=require&sslrootcert=no/such/file.pem").unwrap();
        let e = tls.connector().err().unwrap();
        assert!(
            matches!(&e, TlsError::RootCert(why) if why.contains("no/such/file.pem")),
            "{e}"
        );
    }

    #[test]
    fn a_malformed_escape_is_kept() {
        assert_eq!(percent_decoded("a%2"), "a%2");
        assert_eq!(percent_decoded("%zz%41"), "%zzA");
        assert_eq!(percent_decoded("%"), "%");
    }
}
