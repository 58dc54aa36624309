/**
 * A dataset / entity / storage definition that cannot be loaded. The message starts with the
 * file and says what is wrong, so a bad YAML edit is fixed from the startup log alone.
 */
export class DefinitionError extends Error {
  /** The definition file (or configuration directory) at fault. */
  readonly file: string;

  constructor(file: string, problem: string) {
    super(`${file}: ${problem}`);
    this.name = "DefinitionError";
    this.file = file;
  }
}
