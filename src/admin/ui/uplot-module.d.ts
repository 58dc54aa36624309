/** uPlot ships its types as `dist/uPlot.d.ts` without pointing its package.json at them. */
declare module "uplot" {
  // An `export =` declaration is read through import-equals; there is no runtime require here.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  import uPlot = require("uplot/dist/uPlot");
  export default uPlot;
}
