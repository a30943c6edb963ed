"""Verifies App Store signed data with Apple's App Store Server Library
(PyPI app-store-server-library), the oracle of StorekeeperTestChainTests and
of the server package's StorekeeperVerificationTests (Server/), which read
it from here.

Usage: python3 verify_signed.py REQUESTS.json

REQUESTS.json is a list of objects, each:
  kind         "transaction", "renewal" or "notification"
  jws          the signed data (JWS compact serialization)
  root         the trusted root certificate, base64 of its DER
  environment  "Sandbox", "Production", "Xcode"
  bundleId     the app's bundle identifier
  appAppleId   the app's App Store id (required for Production), or null

Prints a JSON list, one result per request, in order:
  {"accepted": true, "payload": {...decoded fields...}, "enums": {"type": "CONSUMABLE", ...}}
  {"accepted": false, "status": "VERIFICATION_FAILURE", "error": "...the cause..."}

SignedDataVerifier runs with enable_online_checks=False: the chain is checked
at the payload's signedDate, with OpenSSL's strict mode, and no OCSP request
is made. Exits 3 when the library is not installed (Scripts/setup installs it).
"""
import base64
import enum
import json
import sys

try:
    import attr
    from appstoreserverlibrary.models.Environment import Environment
    from appstoreserverlibrary.models.LibraryUtility import _get_cattrs_converter
    from appstoreserverlibrary.signed_data_verifier import SignedDataVerifier, VerificationException
except ImportError as error:
    print(f"the Python package app-store-server-library is not installed ({error})")
    sys.exit(3)


def enums_of(value, prefix=""):
    """The enum members the library recognized, by field name (nested objects as a.b)."""
    found = {}
    for attribute in attr.fields(type(value)):
        name, field = attribute.name, getattr(value, attribute.name)
        if isinstance(field, enum.Enum):
            found[prefix + name] = field.name
        elif hasattr(field, "__attrs_attrs__"):
            found.update(enums_of(field, prefix + name + "."))
    return found


def cause_of(error):
    """The exception and the chain of causes that led to it, as one line."""
    parts = []
    while error is not None:
        parts.append(f"{type(error).__name__}: {error}")
        error = error.__cause__
    return " <- ".join(parts)


def verify(request):
    verifier = SignedDataVerifier(
        [base64.b64decode(request["root"])],
        False,
        Environment(request["environment"]),
        request["bundleId"],
        request.get("appAppleId"),
    )
    decode = {
        "transaction": verifier.verify_and_decode_signed_transaction,
        "renewal": verifier.verify_and_decode_renewal_info,
        "notification": verifier.verify_and_decode_notification,
    }[request["kind"]]
    try:
        decoded = decode(request["jws"])
    except VerificationException as error:
        return {"accepted": False, "status": error.status.name, "error": cause_of(error)}
    payload = _get_cattrs_converter(type(decoded)).unstructure(decoded)
    return {"accepted": True, "payload": payload, "enums": enums_of(decoded)}


def main():
    with open(sys.argv[1], encoding="utf-8") as file:
        requests = json.load(file)
    json.dump([verify(request) for request in requests], sys.stdout)


main()
