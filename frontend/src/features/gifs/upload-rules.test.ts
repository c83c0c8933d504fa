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
    ['413 too_large', new ApiError('The file is larger than the 10 MB limit.', 413, 'too_large'), MSG_SERVER_LIMIT],
    ["a proxy's 413 without a code", new ApiError('Failed to upload gif', 413), MSG_SERVER_LIMIT],
    ['400 invalid_image', new ApiError('The file is not a valid image.', 400, 'invalid_image'), MSG_INVALID_FORMAT],
    ['400 unsupported_type', new ApiError('Unsupported image type.', 400, 'unsupported_type'), MSG_INVALID_FORMAT],
    [
      '400 image_too_large',
      new ApiError('The image is 65535×65535 pixels; the limit is 8192×8192.', 400, 'image_too_large'),
      MSG_INVALID_FORMAT,
    ],
    [
      '400 image_too_complex',
      new ApiError('The image took too long to process.', 400, 'image_too_complex'),
      MSG_INVALID_FORMAT,
    ],
    ['400 bad_request', new ApiError('The upload is not valid multipart/form-data.', 400, 'bad_request'), MSG_INVALID_FORMAT],
    ['400 validation', new ApiError('Title must be at most 100 characters', 400, 'validation'), 'Title must be at most 100 characters'],
    ['409 duplicate', new ApiError('This GIF is already in the library.', 409, 'duplicate'), 'This GIF is already in the library.'],
    ['503', new ApiError('Server error - please try again later', 503, 'unavailable'), 'Server error - please try again later'],
    ['no answer', new ApiError('Network error - check your connection'), 'Network error - check your connection'],
    ['an empty error', new Error(''), MSG_UPLOAD_FAILED],
    ['a thrown string', 'weird', MSG_UPLOAD_FAILED],
  ])('%s → its toast message', (_, error, message) => expect(uploadErrorMessage(error)).toBe(message));

  // The text of a message never chooses the toast: only the status and the code do.
  it.each([
    ['a 400 whose message says "too large"', new ApiError('gifData is too large.', 400, 'bad_request'), MSG_INVALID_FORMAT],
    [
      'a 400 validation whose message says "too large"',
      new ApiError('The title is too large.', 400, 'validation'),
      'The title is too large.',
    ],
    ['a 503 whose message mentions 413', new ApiError('Upstream answered 413 Payload Too Large', 503), 'Upstream answered 413 Payload Too Large'],
    ['a 409 whose message mentions 400', new ApiError('Conflict with request 400', 409, 'conflict'), 'Conflict with request 400'],
    ['an error without status mentioning 413', new Error('Request failed (413)'), 'Request failed (413)'],
    ['an error without status saying "too large"', new Error('Payload Too Large'), 'Payload Too Large'],
    ['an error without status mentioning 400', new Error('Bad request 400'), 'Bad request 400'],
  ])('%s keeps to its status and code', (_, error, message) => expect(uploadErrorMessage(error)).toBe(message));
});
