/**
 * The typing pass's longest cross-checks with the embedded engine (calls given if/coalesce
 * Variants, arrays of values of no class, IP arithmetic), in a process of their own so that they
 * run beside the rest of test/support/probed-signatures-suite.ts.
 */
import { describeProbedSignatures } from "../support/probed-signatures-suite.js";

describeProbedSignatures("variant cross-checks");
