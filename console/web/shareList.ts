/**
 * A question's options as a list of horizontal bars, one row per option with its whole name (it
 * wraps, never cut), its share on two sides and the bars on one scale — readable at 2 options or
 * 12. Beyond a bound the largest are listed and the rest summed as "others", named in the row
 * ({@link shareRows}).
 */
import { html } from "htm/preact";
import { Chart, type LegendEntry } from "./chartFrame.js";
import { type ShareRow, shareRows } from "./shareRows.js";

/** A name that may wrap after each `_`, `-` or `.` (`identity_<wbr>document`) rather than inside a word. */
export function breakable(name: string) {
  return name.split(/(?<=[_.-])/).map((part, index) => (index === 0 ? part : html`<wbr />${part}`));
}

/** A titled table of options with two bars each: `sides` name and colour the two columns. */
export function ShareList({
  title,
  kind,
  rows,
  sides,
  unit = "share of answers (%)",
}: {
  title: string;
  kind: string;
  rows: readonly ShareRow[];
  sides: readonly [LegendEntry, LegendEntry];
  unit?: string;
}) {
  const shown = shareRows(rows);
  const most = Math.max(0.01, ...shown.flatMap((row) => [row.a, row.b]));
  const [a, b] = sides;
  const width = (share: number) => `${((share / most) * 100).toFixed(1)}%`;
  return html`<${Chart} title=${title} kind=${kind} legend=${sides}>
    <table class="share-list">
      <thead>
        <tr>
          <th scope="col">option</th>
          <th scope="col" class="share-axis"><span data-axis="x">${unit}</span> <span class="scale">0–${(most * 100).toFixed(0)}%</span></th>
          <th scope="col" class="number">${a.name}</th>
          <th scope="col" class="number">${b.name}</th>
        </tr>
      </thead>
      <tbody>
        ${shown.map(
          (row) => html`<tr data-option=${row.others === undefined ? row.name : "others"}>
            <th scope="row" class="option-name">${breakable(row.name)}${row.others === undefined ? null : html`<span class="others-names">${row.others.join(", ")}</span>`}</th>
            <td class="share-bars" aria-hidden="true">
              <span class="share-bar" style=${{ width: width(row.a), background: a.colour }}></span>
              <span class="share-bar" style=${{ width: width(row.b), background: b.colour }}></span>
            </td>
            <td class="number">${(row.a * 100).toFixed(0)}%</td>
            <td class="number">${(row.b * 100).toFixed(0)}%</td>
          </tr>`,
        )}
      </tbody>
    </table>
  </${Chart}>`;
}
