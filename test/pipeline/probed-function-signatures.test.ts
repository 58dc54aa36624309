/**
 * The probe's table still describes the embedded engine, and the typing pass's rules built on it
 * hold there (test/support/probed-signatures-suite.ts; its variant cross-checks run beside it, in
 * probed-signatures-variants.test.ts).
 */
import { describeProbedSignatures } from "../support/probed-signatures-suite.js";

describeProbedSignatures("table and rules");
