/** Everything a request handler needs, built once at startup. */
import type { PipelineContext } from "../pipeline/run-prepared-query.js";

export interface ServiceContext extends PipelineContext {
  /** Checks each dependency; resolves to name -> "ok" or what failed. */
  checkHealth(): Promise<Record<string, string>>;
}
