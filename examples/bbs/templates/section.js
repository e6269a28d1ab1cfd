// Follows the section's live feed (server-sent events): a new article
// appears at the top of the first page, an edited title changes, an erased
// article goes. Every text goes in as text (textContent), never as HTML.
(() => {
  "use strict";
  const table = document.getElementById("articles");
  const rows = table.tBodies[0];
  const none = document.getElementById("no-articles");
  const live = document.getElementById("live");
  const section = table.dataset.section;
  const insert = table.dataset.insert === "true";
  let after = table.dataset.after;

  const articleUrl = (id) => `/sections/${encodeURIComponent(section)}/${encodeURIComponent(id)}`;
  const when = (time) => new Date(time).toISOString().slice(0, 16).replace("T", " ") + " UTC";
  const rowOf = (id) => rows.querySelector(`tr[data-id="${CSS.escape(id)}"]`);
  const cell = (text, className) => {
    const td = document.createElement("td");
    td.textContent = text;
    if (className) td.className = className;
    return td;
  };
  const row = (article) => {
    const tr = document.createElement("tr");
    tr.dataset.id = article.id;
    const link = document.createElement("a");
    link.href = articleUrl(article.id);
    link.textContent = article.title;
    const title = document.createElement("td");
    title.append(link);
    tr.append(title, cell(article.writer), cell(when(article.updated_at), "meta"));
    return tr;
  };
  const shown = () => {
    none.hidden = rows.rows.length > 0;
    table.hidden = rows.rows.length === 0;
  };
  const apply = (change) => {
    if (change.type === "created") {
      if (insert) {
        rows.prepend(row(change.article));
        shown();
      } else {
        live.textContent = "New articles were posted: reload to see them.";
        live.hidden = false;
      }
    } else if (change.type === "updated") {
      rowOf(change.article.id)?.replaceWith(row(change.article));
    } else if (change.type === "erased") {
      rowOf(change.id)?.remove();
      shown();
    } else if (change.type === "reset") {
      location.reload();
    }
  };
  const follow = () => {
    const source = new EventSource(`${table.dataset.events}?after=${encodeURIComponent(after)}`);
    for (const name of ["created", "updated", "erased", "reset"]) {
      source.addEventListener(name, (event) => {
        after = event.lastEventId;
        apply(JSON.parse(event.data));
      });
    }
    // The browser reconnects by itself, with Last-Event-ID, when a stream
    // ends; when the server refused (a 503 while its database is away), it
    // gives up, so start again later from the last event seen.
    source.onerror = () => {
      if (source.readyState === EventSource.CLOSED) setTimeout(follow, 5000);
    };
  };
  follow();
})();
