/** Size of the `big` tool's one text part: 20 MiB of plain ASCII (no JSON escapes). Import-free, so client processes can read it. */
export const BIG_RESULT_BYTES = 20 * 1024 * 1024;
