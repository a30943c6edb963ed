"""Times Apple's App Store Server Library (PyPI app-store-server-library)
verifying signed transactions, for storekeeper-server-benchmark.

Usage: python3 time_verifier.py PAYLOADS.json

PAYLOADS.json: {"root": base64 DER, "bundleId": ..., "environment": "Sandbox",
"jws": [signed transactions]}. One SignedDataVerifier (online checks off, as
the server runs it offline) verifies every JWS once, after one warm-up call.
Prints {"count": N, "accepted": A, "nanoseconds": T, "cpuNanoseconds": C}
(wall-clock and process CPU time; integers: the benchmark reads JSON
without floating point). Exits 3 when the library is
not installed (Scripts/setup installs it).
"""
import base64
import json
import sys
import time

try:
    from appstoreserverlibrary.models.Environment import Environment
    from appstoreserverlibrary.signed_data_verifier import SignedDataVerifier, VerificationException
except ImportError as error:
    print(f"the Python package app-store-server-library is not installed ({error})")
    sys.exit(3)


def main():
    with open(sys.argv[1], encoding="utf-8") as file:
        request = json.load(file)
    verifier = SignedDataVerifier(
        [base64.b64decode(request["root"])], False, Environment(request["environment"]), request["bundleId"], None)
    payloads = request["jws"]
    verifier.verify_and_decode_signed_transaction(payloads[0])
    accepted = 0
    start = time.perf_counter_ns()
    cpu_start = time.process_time_ns()
    for jws in payloads:
        try:
            verifier.verify_and_decode_signed_transaction(jws)
            accepted += 1
        except VerificationException:
            pass
    nanoseconds = time.perf_counter_ns() - start
    cpu_nanoseconds = time.process_time_ns() - cpu_start
    json.dump({"count": len(payloads), "accepted": accepted, "nanoseconds": nanoseconds, "cpuNanoseconds": cpu_nanoseconds}, sys.stdout)


main()
