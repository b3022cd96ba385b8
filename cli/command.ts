/** What every command gets besides its arguments. */
export interface CommandOptions {
  /** `--debug`: failures show their stack trace. */
  debug: boolean;
}
