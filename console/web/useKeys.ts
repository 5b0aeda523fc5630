import { useEffect, useRef } from "preact/hooks";

/** Ignore shortcuts while the person types into a field. */
function typing(event: KeyboardEvent): boolean {
  const target = event.target as HTMLElement | null;
  return target !== null && ["INPUT", "SELECT", "TEXTAREA"].includes(target.tagName);
}

/** Calls the handler on each key press outside a form field and without Alt, Ctrl or Meta. */
export function useKeys(handler: (event: KeyboardEvent) => void): void {
  const ref = useRef(handler);
  ref.current = handler;
  useEffect(() => {
    const listener = (event: KeyboardEvent) => {
      if (!typing(event) && !event.altKey && !event.ctrlKey && !event.metaKey) ref.current(event);
    };
    document.addEventListener("keydown", listener);
    return () => document.removeEventListener("keydown", listener);
  }, []);
}
