// What the screenshot checks measure in the table's frame: anything outside the viewport, any tap target
// under 44 CSS px, any text under 12 CSS px. Evaluated by tests/table/browser.py.
(() => {
  const W = window.innerWidth, H = window.innerHeight, problems = [];
  const name = (el) => `${el.tagName.toLowerCase()}${el.id ? "#" + el.id : ""}${el.dataset && el.dataset.tile ? "[" + el.dataset.tile + "]" : ""}`;
  const scrolled = (el) => {
    for (let up = el.parentElement; up && up !== document.body; up = up.parentElement) {
      if (up.dataset && up.dataset.stage) return true; // a pan/zoom stage clips what is panned out of it
      const style = getComputedStyle(up);
      if (/(auto|scroll)/.test(style.overflowY + style.overflowX)) return true;
    }
    return false;
  };
  for (const el of document.querySelectorAll("body *")) {
    if (el.closest("[hidden]") || getComputedStyle(el).display === "none" || getComputedStyle(el).visibility === "hidden") continue;
    const r = el.getBoundingClientRect();
    if (!r.width && !r.height) continue;
    if (!scrolled(el) && (r.left < -0.5 || r.top < -0.5 || r.right > W + 0.5 || r.bottom > H + 0.5)) {
      problems.push(`outside the viewport: ${name(el)} ${Math.round(r.left)},${Math.round(r.top)} ${Math.round(r.width)}x${Math.round(r.height)}`);
    }
  }
  for (const el of document.querySelectorAll("[data-tap], button")) {
    if (el.closest("[hidden]")) continue;
    const r = el.getBoundingClientRect();
    if (r.width < 44 || r.height < 44) problems.push(`target under 44 px: ${name(el)} ${r.width.toFixed(1)}x${r.height.toFixed(1)}`);
  }
  for (const el of document.querySelectorAll("body *")) {
    if (el.closest("[hidden]") || el.tagName === "SCRIPT" || el.tagName === "STYLE") continue;
    const own = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
    if (!own) continue;
    const size = parseFloat(getComputedStyle(el).fontSize);
    if (size < 12) problems.push(`text under 12 px: ${name(el)} ${size}px ${el.textContent.trim().slice(0, 20)}`);
  }
  return problems;
})
