/** The console's frame: the header (policies, the reviewer's name or "signed in") and the page the route names. */
import { html } from "htm/preact";
import { useEffect, useState } from "preact/hooks";
import { call, localReviewer, setLocalReviewer } from "./api.js";
import { ItemPage } from "./ItemPage.js";
import { QueuePage } from "./QueuePage.js";
import { type Filters, queueHref } from "./queueFilters.js";
import { parseRoute, type Route } from "./route.js";
import { StatsPage } from "./StatsPage.js";

/** The whole console; `signedIn` when the deployment signs people in (no reviewer field then). */
export function ConsoleApp({ signedIn }: { signedIn: boolean }) {
  const [route, setRoute] = useState<Route>(parseRoute(location.hash));
  const [policies, setPolicies] = useState<string[]>([]);
  const [reviewer, setReviewer] = useState(localReviewer());
  useEffect(() => {
    const onHash = () => setRoute(parseRoute(location.hash));
    window.addEventListener("hashchange", onHash);
    call<{ policies: string[] }>("/api/policies").then(
      (answer) => setPolicies(answer.policies),
      () => undefined,
    );
    // Locally, `decisions up --reviewer` may name the reviewer: then the page need not ask.
    if (!signedIn && localReviewer() === "")
      call<{ reviewer: { name: string } | null }>("/api/me").then(
        (answer) => {
          if (answer.reviewer?.name)
            setReviewer((typed) => (typed === "" ? (answer.reviewer?.name ?? "") : typed));
        },
        () => undefined,
      );
    return () => window.removeEventListener("hashchange", onHash);
  }, [signedIn]);
  const nameReviewer = (name: string) => {
    setReviewer(name);
    setLocalReviewer(name);
  };
  // The queue's filters live in the address: a reload or a link keeps them.
  const setFilters = (filters: Filters) => {
    location.hash = queueHref(filters);
  };
  return html`
    <header>
      <h1><a href="#/">Review console</a></h1>
      <nav aria-label="Policies">
        ${policies.map((name) => html`<a href="#/stats/${encodeURIComponent(name)}">${name}</a>`)}
      </nav>
      ${
        signedIn
          ? html`<span class="note">signed in</span>`
          : html`<label>Reviewer <input id="reviewer" value=${reviewer} onInput=${(event: Event) => nameReviewer((event.target as HTMLInputElement).value)} placeholder="your name" autocomplete="name" /></label>`
      }
    </header>
    <main>
      ${route.page === "queue" ? html`<${QueuePage} filters=${route.filters} setFilters=${setFilters} policies=${policies} />` : null}
      ${
        route.page === "item"
          ? html`<${ItemPage}
              key=${`${route.policy}/${route.id}`}
              policy=${route.policy}
              id=${route.id}
              filters=${route.filters}
              reviewer=${signedIn ? "token" : reviewer}
              nameReviewer=${nameReviewer}
            />`
          : null
      }
      ${route.page === "stats" ? html`<${StatsPage} key=${route.policy} policy=${route.policy} />` : null}
      ${
        route.page === "invalid"
          ? html`<p class="error" role="alert">This link does not name an item: its address is not valid percent-encoding (${route.link.slice(0, 200)}).</p>
            <p><a href="#/">← back to the queue</a></p>`
          : null
      }
    </main>`;
}
