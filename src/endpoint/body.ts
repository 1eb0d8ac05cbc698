/**
 * Reads a JSON request body with a size limit. A declared Content-Length over the limit is refused
 * before a byte is read; a body that grows past it (chunked) is refused as soon as it does, and the
 * rest is never buffered.
 */
import type { IncomingMessage } from 'node:http';
import { HttpError } from './errors.ts';

export async function readJsonBody(req: IncomingMessage, maxBytes: number): Promise<unknown> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) throw tooLarge(maxBytes);
  const text = await readLimited(req, maxBytes);
  if (text.trim() === '') throw HttpError.invalid([{ field: 'body', message: 'a JSON object is required' }]);
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw HttpError.invalid([{ field: 'body', message: `not valid JSON (${(error as Error).message})` }]);
  }
}

function readLimited(req: IncomingMessage, maxBytes: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const cleanup = () => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      req.off('close', onClose);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        cleanup();
        // Stop reading: the answer goes out with Connection: close, and the socket goes with it.
        req.pause();
        reject(tooLarge(maxBytes));
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      cleanup();
      resolve(Buffer.concat(chunks).toString('utf8'));
    };
    const onError = (error: Error) => {
      cleanup();
      reject(error);
    };
    // A client that goes away mid-body ends the wait (no 'end' will come).
    const onClose = () => {
      cleanup();
      reject(new HttpError(400, 'incomplete_body', 'the client closed the connection before the body was complete'));
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
    req.on('close', onClose);
  });
}

function tooLarge(maxBytes: number): HttpError {
  return new HttpError(413, 'body_too_large', `the request body is larger than ${maxBytes} bytes`, { headers: { connection: 'close' } });
}
