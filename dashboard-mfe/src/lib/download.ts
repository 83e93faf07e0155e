/**
 * An RTK Query `responseHandler` for a file the API sends (a CSV export, which needs the bearer
 * token, so it cannot be a plain link): a successful answer is saved as `filename` through a
 * temporary object URL; a refusal is read as the API's JSON error, so the caller shows its
 * message as for any other call.
 */
export function saveAs(filename: string) {
  return async (response: Response): Promise<unknown> => {
    if (!response.ok) return response.json().catch(() => null);
    const url = URL.createObjectURL(await response.blob());
    const link = document.createElement('a');
    link.href = url;
    link.download = filename;
    link.hidden = true;
    document.body.append(link);
    link.click();
    link.remove();
    // The browser has started the download from the URL by now; a minute is ample.
    setTimeout(() => URL.revokeObjectURL(url), 60_000);
    return null;
  };
}
