import { act, render, screen } from '@testing-library/react';
import { afterEach, expect, it, vi } from 'vitest';
import { ProgressiveImage } from './progressive-image';

class FakeImage {
  static created: FakeImage[] = [];
  onload: (() => void) | null = null;
  src = '';
  constructor() {
    FakeImage.created.push(this);
  }
}

afterEach(() => {
  vi.unstubAllGlobals();
  FakeImage.created = [];
});

it('shows the placeholder until the full image has been preloaded', () => {
  vi.stubGlobal('Image', FakeImage);
  render(<ProgressiveImage placeholder="/still.png" src="/animated.gif" alt="cat" />);
  const img = screen.getByRole('img', { name: 'cat' });
  expect(img).toHaveAttribute('src', '/still.png');
  expect(FakeImage.created[0]?.src).toBe('/animated.gif');
  act(() => FakeImage.created[0]?.onload?.());
  expect(img).toHaveAttribute('src', '/animated.gif');
  expect(img).toHaveAttribute('data-loaded', 'true');
});
