"""Signing the printed forms: an event identity (key + self-signed certificate) and
PDF signatures with pyHanko.

The event's certificate is its own CA: verification trusts exactly that certificate, so a
PDF "signed by this event" means signed with the event's key, and "intact" means not a
byte changed since (the signature covers the whole file). The signature field is
invisible; the visible signature block is part of the form, drawn by reportlab, because
pyHanko's stamp font cannot draw Chinese.

The key is kept in a PKCS#12 file under a passphrase; the certificate is also written as
PEM beside it, to hand out for verification. Where each event keeps its key is the
store's business; the command line takes ``--key FILE.p12`` and reads the passphrase from
``REFEREE_APP_KEY_PASSPHRASE`` (or asks for it).
"""

from __future__ import annotations

import contextlib
import datetime as dt
import logging
import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..core.errors import cannot_read
from ..core.inputs import read_limited
from .errors import SigningError

FIELD_NAME = "RefereeAppSignature"
KEY_FILE = "event-key.p12"
CERT_FILE = "event-cert.pem"


@dataclass(frozen=True)
class EventIdentity:
    p12_path: Path
    cert_path: Path
    subject: str
    sha256_fingerprint: str


@dataclass(frozen=True)
class VerifyResult:
    """``ok`` when the PDF is signed, intact, and signed by the given certificate."""

    ok: bool
    signed: bool
    intact: bool
    trusted: bool
    signer: str | None
    signed_at: str | None
    message: str


@contextlib.contextmanager
def _quiet_pyhanko() -> Iterator[None]:
    """pyHanko logs each failure with a traceback; the caller reports it in one line."""
    loggers = [logging.getLogger(n) for n in ("pyhanko", "pyhanko_certvalidator")]
    levels = [lg.level for lg in loggers]
    for lg in loggers:
        lg.setLevel(logging.CRITICAL + 1)
    try:
        yield
    finally:
        for lg, level in zip(loggers, levels, strict=True):
            lg.setLevel(level)


def _passphrase_bytes(passphrase: str | bytes) -> bytes:
    return passphrase.encode("utf-8") if isinstance(passphrase, str) else passphrase


def make_event_identity(
    directory: str | Path,
    passphrase: str | bytes,
    *,
    common_name: str = "referee-app event",
    organisation: str | None = None,
    years: int = 10,
    p12_name: str = KEY_FILE,
    cert_name: str = CERT_FILE,
    overwrite: bool = False,
) -> EventIdentity:
    """Create an EC P-256 key and a self-signed certificate; write ``event-key.p12``
    (key and certificate, encrypted under ``passphrase``) and ``event-cert.pem``."""
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.hazmat.primitives.serialization import pkcs12
    from cryptography.x509.oid import NameOID

    pw = _passphrase_bytes(passphrase)
    if len(pw) < 8:
        raise SigningError(
            "the passphrase must have at least 8 characters", code="key.passphrase_short", min=8
        )
    folder = Path(directory)
    folder.mkdir(parents=True, exist_ok=True)
    p12_path = folder / p12_name
    cert_path = folder / cert_name
    for path in (p12_path, cert_path):
        if path.exists() and not overwrite:
            raise SigningError(
                f"{path}: already exists (an event key is never overwritten)",
                code="file.exists",
                field="out",
                target=path,
            )

    key = ec.generate_private_key(ec.SECP256R1())
    attrs = [x509.NameAttribute(NameOID.COMMON_NAME, common_name)]
    if organisation:
        attrs.append(x509.NameAttribute(NameOID.ORGANIZATION_NAME, organisation))
    name = x509.Name(attrs)
    now = dt.datetime.now(dt.UTC) - dt.timedelta(minutes=5)
    cert = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now)
        .not_valid_after(now + dt.timedelta(days=365 * years))
        .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
        .add_extension(
            x509.KeyUsage(
                digital_signature=True,
                content_commitment=True,
                key_encipherment=False,
                data_encipherment=False,
                key_agreement=False,
                key_cert_sign=True,
                crl_sign=True,
                encipher_only=False,
                decipher_only=False,
            ),
            critical=True,
        )
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(key.public_key()), critical=False)
        .sign(key, hashes.SHA256())
    )
    blob = pkcs12.serialize_key_and_certificates(
        name=common_name.encode("utf-8"),
        key=key,
        cert=cert,
        cas=None,
        encryption_algorithm=serialization.BestAvailableEncryption(pw),
    )
    _write_private(p12_path, blob)
    cert_path.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    return EventIdentity(
        p12_path, cert_path, cert.subject.rfc4514_string(), cert.fingerprint(hashes.SHA256()).hex()
    )


def _write_private(path: Path, data: bytes) -> None:
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "wb") as handle:
        handle.write(data)


def load_certificate(path: str | Path) -> Any:
    """A PEM or DER certificate file (as written by :func:`make_event_identity`)."""
    from cryptography import x509

    try:
        raw = read_limited(path, error=SigningError, field="cert")
    except OSError as exc:
        raise SigningError(
            f"{path}: cannot read the certificate: {exc.strerror or exc}",
            code="file.cannot_read",
            field="cert",
            source=path,
            detail=exc.strerror or str(exc),
        ) from None
    try:
        return (
            x509.load_pem_x509_certificate(raw)
            if b"-----BEGIN" in raw
            else x509.load_der_x509_certificate(raw)
        )
    except ValueError:
        raise SigningError(
            f"{path}: not a certificate (PEM or DER)",
            code="signing.not_certificate",
            field="cert",
            source=path,
        ) from None


def sign_pdf(
    in_path: str | Path,
    out_path: str | Path,
    p12_path: str | Path,
    passphrase: str | bytes,
    *,
    reason: str | None = None,
    location: str | None = None,
) -> None:
    """Sign ``in_path`` into ``out_path``: a PAdES signature (SHA-256) with ``reason`` and
    ``location``, in a field without an appearance of its own — the visible signature block
    (signer, time, certificate fingerprint) is drawn into the page by the form before
    signing, since pyHanko's stamp font cannot draw Chinese. ``out_path`` may equal ``in_path``."""
    from pyhanko.pdf_utils.incremental_writer import IncrementalPdfFileWriter
    from pyhanko.sign import fields, signers

    p12 = Path(p12_path)
    if not p12.is_file():
        raise SigningError(f"{p12}: no such key file", code="key.no_file", field="key", source=p12)
    with _quiet_pyhanko():
        signer = signers.SimpleSigner.load_pkcs12(pfx_file=str(p12), passphrase=_passphrase_bytes(passphrase))
    if signer is None:  # pyHanko returns None on a bad file or a wrong passphrase
        raise SigningError(
            f"{p12}: cannot open the key (wrong passphrase, or not a PKCS#12 file)",
            code="key.cannot_open",
            field="key",
            source=p12,
        )
    try:
        data = read_limited(in_path, error=SigningError)
    except OSError as exc:
        line, values = cannot_read(in_path, exc)
        raise SigningError(line, **values) from None
    import io

    try:
        writer = IncrementalPdfFileWriter(io.BytesIO(data))
        meta = signers.PdfSignatureMetadata(
            field_name=FIELD_NAME,
            md_algorithm="sha256",
            reason=reason or None,
            location=location or None,
            subfilter=fields.SigSeedSubFilter.PADES,  # PAdES baseline (ETSI.CAdES.detached)
        )
        out = io.BytesIO()
        signers.sign_pdf(
            writer,
            meta,
            signer=signer,
            output=out,
            new_field_spec=fields.SigFieldSpec(sig_field_name=FIELD_NAME),
        )
    except Exception as exc:  # noqa: BLE001 - pyHanko raises many kinds; one line for the user
        raise SigningError(
            f"{in_path}: cannot sign: {_one_line(exc)}",
            code="signing.cannot_sign",
            source=in_path,
            detail=_one_line(exc),
        ) from None
    Path(out_path).write_bytes(out.getvalue())


def verify_pdf(path: str | Path, cert: Any) -> VerifyResult:
    """Check the PDF's signature(s) against ``cert`` (a ``cryptography`` certificate or a
    path to one). Intact means the last signature covers the whole file and its digest
    matches; trusted means its signer is that certificate."""
    from asn1crypto import x509 as asn1_x509
    from cryptography.hazmat.primitives import serialization
    from pyhanko.pdf_utils.reader import PdfFileReader
    from pyhanko.sign.validation import validate_pdf_signature
    from pyhanko.sign.validation.status import SignatureCoverageLevel
    from pyhanko_certvalidator import ValidationContext

    if isinstance(cert, (str, Path)):
        cert = load_certificate(cert)
    root = asn1_x509.Certificate.load(cert.public_bytes(serialization.Encoding.DER))
    try:
        raw = read_limited(path, error=SigningError)
    except OSError as exc:
        line, data = cannot_read(path, exc)
        raise SigningError(line, **data) from None

    if b"%PDF-" not in raw[:1024]:  # not a damaged PDF: no PDF at all (bad input, not a finding)
        raise SigningError(f"{path}: not a PDF file", code="signing.not_pdf", source=str(path))

    def fail(signed: bool, message: str, signer: str | None = None) -> VerifyResult:
        return VerifyResult(False, signed, False, False, signer, None, message)

    import io

    from pyhanko.sign.fields import enumerate_sig_fields

    try:
        with _quiet_pyhanko():  # it logs a signature it cannot read with a traceback, and skips it
            reader = PdfFileReader(io.BytesIO(raw), strict=False)
            sigs = reader.embedded_signatures
            filled = [sig_obj for _name, sig_obj, _field in enumerate_sig_fields(reader, filled_status=True)]
    except Exception as exc:  # noqa: BLE001 - a damaged file is "modified", not a crash
        return fail(False, f"modified or damaged: the PDF cannot be read ({_one_line(exc)})")
    if len(filled) > len(sigs):  # a signature pyHanko skipped (an edited /SubFilter): not "not signed"
        try:
            kind = str(filled[-1].get_object().get("/SubFilter", "none"))
        except Exception:  # noqa: BLE001
            kind = "unreadable"
        return fail(True, f"modified: the signature cannot be checked (SubFilter {kind[:60]})")
    if not sigs:
        return fail(False, "not signed")
    sig = sigs[-1]
    try:
        signer_cert = sig.signer_cert
        signer = signer_cert.subject.human_friendly
    except Exception:  # noqa: BLE001
        signer = None
    vc = ValidationContext(trust_roots=[root], allow_fetching=False)
    try:
        with _quiet_pyhanko():
            status = validate_pdf_signature(sig, vc)
    except Exception as exc:  # noqa: BLE001 - a corrupted signature blob
        return fail(True, f"modified: the signature cannot be checked ({_one_line(exc)})", signer)
    intact = bool(status.intact and status.valid)
    whole = status.coverage == SignatureCoverageLevel.ENTIRE_FILE
    trusted = bool(status.trusted)
    signed_at = status.signer_reported_dt.isoformat() if status.signer_reported_dt else None
    if not intact:
        return VerifyResult(
            False, True, False, trusted, signer, signed_at, "modified: the signed bytes have changed"
        )
    if not whole:
        return VerifyResult(
            False, True, False, trusted, signer, signed_at, "modified: content was added after signing"
        )
    if not trusted:
        # the last signature is someone else's: what it covers is theirs, whatever it says.
        # An earlier one by this event's certificate means the file was changed after the
        # event signed it and signed again (an attacker re-signing an edit)
        for earlier in sigs[:-1]:
            try:
                with _quiet_pyhanko():
                    if validate_pdf_signature(earlier, vc).trusted:
                        return VerifyResult(
                            False, True, False, False, signer, signed_at,
                            "modified: changed after this event's certificate signed it, "
                            "and signed again by another certificate",
                        )  # fmt: skip
            except Exception:  # noqa: BLE001,S112 - an unreadable earlier signature proves nothing
                continue
        return VerifyResult(
            False, True, False, False, signer, signed_at,
            "not signed by this event's certificate: its content is not vouched for",
        )  # fmt: skip
    return VerifyResult(
        True, True, True, True, signer, signed_at, "intact and signed by this event's certificate"
    )


def _one_line(exc: BaseException) -> str:
    text = " ".join(str(exc).split()) or type(exc).__name__
    return text[:200]
