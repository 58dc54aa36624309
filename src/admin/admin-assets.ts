/**
 * The admin UI's script and styles: the single-page app in `ui/` bundled by esbuild with uPlot
 * (from npm, served from here: no CDN), once per process, in memory. The entry is the
 * TypeScript source when it is there (tests, `npm run quarry`) and the compiled module in dist/.
 */
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

export interface AdminAssets {
  readonly script: string;
  readonly styles: string;
}

let assets: Promise<AdminAssets> | undefined;

export function adminAssets(): Promise<AdminAssets> {
  assets ??= bundle();
  return assets;
}

async function bundle(): Promise<AdminAssets> {
  const source = fileURLToPath(new URL("./ui/main.ts", import.meta.url));
  const entry = existsSync(source) ? source : fileURLToPath(new URL("./ui/main.js", import.meta.url));
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    format: "iife",
    platform: "browser",
    target: "es2022",
    minify: true,
    write: false,
    logLevel: "silent",
  });
  const script = result.outputFiles[0]?.text;
  if (script === undefined) throw new Error("the admin UI bundle is empty");
  const require = createRequire(import.meta.url);
  const styles = readFileSync(require.resolve("uplot/dist/uPlot.min.css"), "utf8");
  return { script, styles };
}
