// gzip bytes unpacked by the platform's DecompressionStream, written to it and read from it
// directly: its steps are promise reactions, run between the parser's tasks. (Through Blob.stream()
// and Response.blob() each step waited for a task of its own, behind the parser's: what the page
// unpacks this way, its script and its worker, would start only once a big page was parsed.)

/** The unpacked bytes of a gzip, in the pieces the stream gives them. */
export async function gunzipChunks(gz: Uint8Array): Promise<Uint8Array<ArrayBuffer>[]> {
  const stream = new DecompressionStream('gzip');
  const writer = stream.writable.getWriter();
  // A damaged block fails the read below, which is what reports it; these would fail the same way.
  writer.write(gz as Uint8Array<ArrayBuffer>).catch(() => undefined);
  writer.close().catch(() => undefined);
  const reader = stream.readable.getReader();
  const chunks: Uint8Array<ArrayBuffer>[] = [];
  for (let read = await reader.read(); !read.done; read = await reader.read()) chunks.push(read.value);
  return chunks;
}
