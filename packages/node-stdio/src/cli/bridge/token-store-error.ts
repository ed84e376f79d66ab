/**
 * The bridge's token store refused a path it cannot trust: a directory or file
 * another user owns or may write, a link, or something that is not a file.
 * The message names the path and says how to fix it; `path` is that path.
 */
export class TokenStoreError extends Error {
  override name = 'TokenStoreError';
  readonly path: string;

  constructor(path: string, message: string) {
    super(message);
    this.path = path;
  }
}
