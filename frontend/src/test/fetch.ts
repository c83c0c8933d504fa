import { act, fireEvent } from '@testing-library/react';

/** The path and query of a fetch call's URL. */
export const urlOf = (input: RequestInfo | URL | undefined) =>
  typeof input === 'string' ? input : input instanceof URL ? input.href : (input?.url ?? '');

/** The JSON body a fetch call sent (the API client sends JSON as a string). */
export function sentJson(init: RequestInit | undefined): unknown {
  const body = init?.body;
  if (typeof body !== 'string') throw new TypeError(`expected a JSON body, got ${typeof body}`);
  return JSON.parse(body);
}

/**
 * A fetch mock from a function that answers at once: its Response resolves the call and what it
 * throws rejects it, as a real fetch does.
 */
export function answering(
  answer: (input: RequestInfo | URL, init: RequestInit | undefined) => Response,
): typeof fetch {
  return (input, init) => new Promise<Response>((resolve) => resolve(answer(input, init)));
}

/** Clicks inside an async act(), so the promises the click starts settle before it returns. */
export function clickAndSettle(element: HTMLElement): Promise<void> {
  return act(() => {
    fireEvent.click(element);
    return Promise.resolve();
  });
}
