/** Bytes the string takes in UTF-8 (bcrypt reads at most 72). */
export function utf8ByteLength(value: string): number {
  return new TextEncoder().encode(value).length;
}

export function isEmail(value: string): boolean {
  return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value);
}

export type FieldErrors<K extends string> = Partial<Record<K, string>>;

export const hasErrors = <K extends string>(errors: FieldErrors<K>): boolean =>
  Object.values(errors).some(Boolean);
