/**
 * Saves a Blob as a file through a temporary `<a download>` of a blob: URL (the page's Content-Security-Policy
 * governs neither). Plain DOM; the URL is revoked a minute later, when the browser has surely read it.
 */
export function downloadBlob(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.style.display = 'none';
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
