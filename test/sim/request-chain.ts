import type { SimRequest } from './simulator';

/**
 * The requests that together make up what the model saw for `request`, oldest first: the
 * ones it continues by `previous_response_id` (a pre-load, say), then itself.
 *
 * A turn sent on a socket with a matching pre-load carries only the new input; the
 * instructions (the file, the project) travelled in the pre-load. Tests that check what
 * the model was told look at the whole chain, however Flint split it.
 */
export function requestChain(requests: readonly SimRequest[], request: SimRequest): SimRequest[] {
  const chain = [request];
  for (let previous = request.body.previous_response_id; typeof previous === 'string'; ) {
    const earlier = requests.find((candidate) => candidate.responseId === previous);
    if (!earlier) break;
    chain.unshift(earlier);
    previous = earlier.body.previous_response_id;
  }
  return chain;
}
