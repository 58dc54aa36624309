/**
 * Sentry's `sentry-protos` Python package from PyPI (python-package.ts): the TimeSeriesRequest
 * messages as Sentry's own code builds them. The RPC tests run scripts/fixtures/time-series-requests.py
 * with this venv's python, so their requests are serialised by the library real callers use.
 */
import { ensurePythonPackage } from "./python-package.js";

/** The version whose wire format docs and facts describe (0.62.3). */
export const SENTRY_PROTOS_VERSION = process.env.QUARRY_SENTRY_PROTOS_VERSION ?? "0.62.3";

/** The python of a venv where `import sentry_protos` works. */
export async function ensureSentryProtos(version = SENTRY_PROTOS_VERSION): Promise<string> {
  const installed = await ensurePythonPackage({
    name: "sentry-protos",
    version,
    module: "sentry_protos",
    expect: ["snuba/v1"],
    versionVariable: "QUARRY_SENTRY_PROTOS_VERSION",
    purpose: "the RPC tests encode their TimeSeriesRequests with it",
  });
  return installed.python;
}
