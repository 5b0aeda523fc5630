/** A page's generated block was not found: its start or end marker is missing or repeated. */
export class GeneratedBlockError extends Error {
  override name = "GeneratedBlockError";
  constructor(
    readonly block: string,
    message: string,
  ) {
    super(message);
  }
}

/** The marker lines around a generated block named `block`, written by `script`. */
export function blockMarkers(block: string, script: string): { start: string; end: string } {
  return {
    start: `<!-- ${block}: written by \`node --import tsx ${script}\` from the code; do not edit by hand -->`,
    end: `<!-- end of ${block} -->`,
  };
}

/**
 * The page with the lines between the markers of `block` replaced by `content` (the markers kept),
 * so that prose around a generated table stays hand-written.
 * @throws GeneratedBlockError when a marker is missing or appears more than once.
 */
export function replaceGeneratedBlock(
  page: string,
  block: string,
  script: string,
  content: readonly string[],
): string {
  const { start, end } = blockMarkers(block, script);
  const lines = page.split("\n");
  const from = lines.indexOf(start);
  const to = lines.indexOf(end);
  if (from === -1 || to === -1 || to < from) {
    throw new GeneratedBlockError(
      block,
      `the page has no block "${block}": put the lines\n${start}\n${end}\nwhere it goes`,
    );
  }
  if (lines.lastIndexOf(start) !== from || lines.lastIndexOf(end) !== to) {
    throw new GeneratedBlockError(block, `the page has the block "${block}" more than once`);
  }
  return [...lines.slice(0, from + 1), ...content, ...lines.slice(to)].join("\n");
}
