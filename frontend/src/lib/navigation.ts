/**
 * Lets code outside React (the session) navigate. The app registers the router's navigate
 * function at start; until then a full page load is used.
 */
type Navigate = (to: string) => void;

let navigateImpl: Navigate | null = null;

export function setNavigate(fn: Navigate | null): void {
  navigateImpl = fn;
}

export function navigateTo(to: string): void {
  if (navigateImpl) {
    navigateImpl(to);
  } else {
    window.location.assign(to);
  }
}
