import { excerpt } from '../util/excerpt.js';
import { McpError } from './mcp-error.js';

/** Bodies are cut to this many characters so an error never carries a whole page. */
const EXCERPT_LIMIT = 512;

/** The server answered an HTTP request with a status that is not a success. */
export class HttpError extends McpError {
  override name = 'HttpError';
  /** The HTTP status. */
  readonly status: number;
  /** The URL that answered it. */
  readonly url: string;
  /** At most 512 characters of the response body. */
  readonly bodyExcerpt: string;

  /** A failure `status` from `url`; `body` is cut to an excerpt. */
  constructor(status: number, url: string, body = '', options?: ErrorOptions) {
    const cut = excerpt(body, EXCERPT_LIMIT);
    super(`HTTP ${status} from ${url}${cut ? `: ${cut}` : ''}`, options);
    this.status = status;
    this.url = url;
    this.bodyExcerpt = cut;
  }
}
