/** A consumer that cannot start as configured (a partitioned commit log, a group id its key format cannot carry). */
export class ConsumerSetupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ConsumerSetupError";
  }
}
