// Copies the dataset YAML definitions next to the compiled modules: the registry reads them
// relative to its own file, so dist/ runs on its own.
import { cpSync } from "node:fs";

cpSync("src/datasets/configuration", "dist/src/datasets/configuration", { recursive: true });
