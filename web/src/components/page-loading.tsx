/** Suspense fallback while a page chunk loads. */
export function PageLoading({ text = 'Loading...' }: { text?: string }) {
  return (
    <div className="fa-page-loading" role="status" aria-live="polite">
      <i className="pi pi-spin pi-spinner" aria-hidden="true" /> {text}
    </div>
  );
}
