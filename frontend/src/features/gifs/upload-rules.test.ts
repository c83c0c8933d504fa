import { describe, expect, it } from 'vitest';
import { ApiError } from '@/lib/api-client';
import {
  MSG_INVALID_FORMAT,
  MSG_INVALID_TYPE,
  MSG_NO_FILE,
  MSG_NO_TITLE,
  MSG_SERVER_LIMIT,
  MSG_UPLOAD_FAILED,
  checkFile,
  fileSelectedMessage,
  isAcceptedImage,
  tooLargeMessage,
  uploadErrorMessage,
  uploadProblem,
} from './upload-rules';

const MB = 1024 * 1024;

describe('file checks', () => {
  it.each([
    ['a.gif', 'image/gif'],
    ['a.png', 'image/png'],
    ['a.jpg', 'image/jpeg'],
    ['a.jpeg', ''],
    ['a.WEBP', ''],
    ['noext', 'image/webp'],
  ])('accepts %s (%s)', (name, type) => expect(isAcceptedImage({ name, type })).toBe(true));

  it.each([
    ['a.txt', 'text/plain'],
    ['a.bmp', 'image/bmp'],
    ['gif', ''],
    ['a.svg', 'image/svg+xml'],
  ])('rejects %s (%s)', (name, type) => expect(isAcceptedImage({ name, type })).toBe(false));

  it('reports the wrong type first, then the size with two decimals', () => {
    expect(checkFile({ name: 'a.txt', type: 'text/plain', size: 1 })).toEqual({
      title: 'Invalid File Type',
      message: MSG_INVALID_TYPE,
    });
    expect(checkFile({ name: 'a.gif', type: 'image/gif', size: 10 * MB })).toBeNull();
    expect(checkFile({ name: 'a.gif', type: 'image/gif', size: 10 * MB + 1 })).toEqual({
      title: 'File Too Large',
      message: 'File size exceeds 10MB limit. Your file is 10.00MB.',
    });
    expect(checkFile({ name: 'a.gif', type: 'image/gif', size: 2 * MB }, MB)?.title).toBe('File Too Large');
    expect(tooLargeMessage(12.5 * MB)).toBe('File size exceeds 10MB limit. Your file is 12.50MB.');
    expect(fileSelectedMessage('cat.gif', 1.25 * MB)).toBe('File selected: cat.gif (1.25MB)');
  });

  it('needs a file and a non-blank title', () => {
    const file = new File(['x'], 'a.gif', { type: 'image/gif' });
    expect(uploadProblem(null, 'title')).toBe(MSG_NO_FILE);
    expect(uploadProblem(file, '   ')).toBe(MSG_NO_TITLE);
    expect(uploadProblem(file, 'ok')).toBeNull();
  });
});

describe('upload error mapping', () => {
  it.each([
    [new ApiError('The file is larger than the 10 MB limit.', 413, 'too_large'), MSG_SERVER_LIMIT],
    [new Error('Request failed (413)'), MSG_SERVER_LIMIT],
    [new Error('Payload Too Large'), MSG_SERVER_LIMIT],
    [new ApiError('The file is not a valid image.', 400, 'invalid_image'), MSG_INVALID_FORMAT],
    [new ApiError('Unsupported image type.', 400, 'unsupported_type'), MSG_INVALID_FORMAT],
    [new Error('Bad request 400'), MSG_INVALID_FORMAT],
    [new ApiError('Title must be at most 100 characters', 400, 'validation'), 'Title must be at most 100 characters'],
    [new ApiError('Server error - please try again later', 503), 'Server error - please try again later'],
    [new ApiError('Network error - check your connection'), 'Network error - check your connection'],
    [new Error(''), MSG_UPLOAD_FAILED],
    ['weird', MSG_UPLOAD_FAILED],
  ])('%s → %s', (error, message) => expect(uploadErrorMessage(error)).toBe(message));
});
