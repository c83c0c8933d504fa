/** Small stroke icons for the manage buttons (decorative: the buttons carry the words). */
const common = {
  width: 16,
  height: 16,
  viewBox: '0 0 24 24',
  fill: 'none',
  stroke: 'currentColor',
  strokeWidth: 2,
  strokeLinecap: 'round',
  strokeLinejoin: 'round',
  'aria-hidden': true,
  focusable: false,
} as const;

export function PencilIcon() {
  return (
    <svg {...common}>
      <path d="M12 20h9" />
      <path d="M16.5 3.5a2.12 2.12 0 0 1 3 3L7 19l-4 1 1-4Z" />
    </svg>
  );
}

export function TrashIcon() {
  return (
    <svg {...common}>
      <path d="M3 6h18" />
      <path d="M8 6V4h8v2" />
      <path d="M19 6l-1 14H6L5 6" />
      <path d="M10 11v6M14 11v6" />
    </svg>
  );
}

export function CloudIcon() {
  return (
    <svg {...common}>
      <path d="M17.5 19H7a5 5 0 1 1 .9-9.92A6 6 0 0 1 19 11.5a3.75 3.75 0 0 1-1.5 7.5Z" />
    </svg>
  );
}
