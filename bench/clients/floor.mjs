/** The floor: hand-written minimal clients, the cost no client can beat (floor-http.mjs, floor-stdio.mjs). */

/** @type {import('./adapter.mjs').Load} */
export async function load(kind) {
  if (kind === 'stdio') {
    const { floorStdio } = await import('./floor-stdio.mjs');
    return (target) => floorStdio(/** @type {any} */ (target));
  }
  const { floorHttp } = await import('./floor-http.mjs');
  return (target) => floorHttp(/** @type {any} */ (target));
}
