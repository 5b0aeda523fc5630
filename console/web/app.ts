/**
 * The review console: the queue of items waiting for a person, an item page to answer the
 * questions the model left on their fallback, and a policy's pictures. Keyboard: on the queue J/K
 * move and Enter opens; on an item J/K move between questions, number keys pick an option, Enter
 * submits, and the next item opens. An item a person already reviewed is changed only through
 * Amend (the API's `amend: true`), which makes every question answerable and records an amendment.
 */
import { html } from "htm/preact";
import { render } from "preact";
import { loadConfig } from "./api.js";
import { ConsoleApp } from "./ConsoleApp.js";

const config = await loadConfig();
const root = document.getElementById("app");
if (root !== null) {
  root.textContent = "";
  render(html`<${ConsoleApp} signedIn=${config.auth !== undefined} />`, root);
}
