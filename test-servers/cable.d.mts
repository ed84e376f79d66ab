/** Types of cable.mjs, for TypeScript tests anywhere in the repository. */

/** A TCP cable in front of a server that a test can pull out and plug back, on the same port. */
export interface Cable {
  /** `http://127.0.0.1:<port>`: the cable's end, to give a client in place of the server's origin. */
  readonly origin: string;
  /** Resets every connection through the cable, and each new one until `plug()`: the network dropped. */
  unplug(): void;
  /** Passes connections through again. */
  plug(): void;
  close(): Promise<void>;
}

/** A cable to `target` (an origin on 127.0.0.1). */
export function startCable(target: string): Promise<Cable>;
