// Injected by pictures.sh into a copy of the report (the report itself has no script): checks
// what Chromium laid out at 1280 px and writes every finding, one per line, into the pre
// element layout-check; the one called layout-count says how much it looked at.
(function () {
  const out = [];
  const say = (s) => out.push(s);
  const name = (el) => {
    const sec = el.closest('section');
    const h = el.closest('.panel, .verdict, section');
    const cap = h && h.querySelector('h3, h2');
    return (sec ? '#' + sec.id : '?') + ' [' + (cap ? cap.textContent.trim().slice(0, 60) : '') + ']';
  };
  const box = (el) => el.getBoundingClientRect();
  const meets = (a, b) =>
    a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;
  const rotated = (t) => /rotate/.test(t.getAttribute('transform') || '');
  let ntext = 0, own = 0;
  const svgs = [...document.querySelectorAll('svg')];
  const width = document.documentElement.clientWidth;
  for (const svg of svgs) {
    const where = name(svg);
    const vb = svg.viewBox && svg.viewBox.baseVal;
    if (!vb || !vb.width || !vb.height) say('no viewBox: ' + where);
    const r = box(svg);
    if (r.height > 1000) say('taller than 1000 px (' + Math.round(r.height) + '): ' + where);
    if (r.right > width + 0.5) say('wider than the page (' + Math.round(r.right) + ' > ' + width + '): ' + where);
    const texts = [...svg.querySelectorAll('text')];
    // Every text inside its svg's drawing area (as laid out: the viewBox scaled to its size).
    for (const t of texts) {
      ntext++;
      const b = box(t);
      if (b.left < r.left - 0.5 || b.right > r.right + 0.5 || b.top < r.top - 0.5 || b.bottom > r.bottom + 0.5)
        say('clipped text "' + t.textContent + '": ' + where);
      if (/\de[+-]?\d/.test(t.textContent) && /tick|axis|marklabel|val/.test(t.getAttribute('class') || ''))
        say('scientific notation "' + t.textContent + '": ' + where);
    }
    // Texts do not overlap one another (two rotated labels may share their bounding boxes).
    for (let i = 0; i < texts.length; i++)
      for (let j = i + 1; j < texts.length; j++) {
        if (rotated(texts[i]) && rotated(texts[j])) continue;
        if (!texts[i].textContent.trim() || !texts[j].textContent.trim()) continue;
        if (meets(box(texts[i]), box(texts[j])))
          say('texts overlap "' + texts[i].textContent + '" / "' + texts[j].textContent + '": ' + where);
      }
    // Every interval ends inside the y range its ticks span, or is drawn cut at the plot's
    // edge (path.ci.cut in a g.cut) with its end written beside it: a whisker silently cut
    // would hide where it ends, and one the scale follows too far squashes the figures.
    const yt = [...svg.querySelectorAll('.ytick')].map((t) => +t.textContent.replace(/,/g, ''));
    if (yt.length && yt.every((v) => isFinite(v)))
      for (const c of svg.querySelectorAll('path.ci')) {
        const lo = +c.dataset.lo, hi = +c.dataset.hi, top = Math.max(...yt), bottom = Math.min(...yt);
        const beyond = hi > top * (1 + 1e-9) || lo < bottom * (1 - 1e-9);
        const cut = c.classList.contains('cut');
        if (beyond && !cut)
          say('interval ' + lo + '..' + hi + ' beyond the y range ' + bottom + '..' + top + ': ' + where);
        if (cut && !beyond) say('interval ' + lo + '..' + hi + ' cut but inside the y range ' + bottom + '..' + top + ': ' + where);
        const g = c.closest('g.cut');
        if (cut && !(g && [...g.querySelectorAll('text')].some((t) => /\d/.test(t.textContent))))
          say('interval ' + lo + '..' + hi + ' cut without its end written: ' + where);
      }
    // Each figure is scaled to its own data: its highest bar or point reaches at least a fifth
    // of its y scale (ticks' y positions: the text sits 4 px below its line).
    if (svg.matches('svg.bars, svg.lines') && yt.length > 1) {
      const py = [...svg.querySelectorAll('.ytick')].map((t) => +t.getAttribute('y') - 4);
      const base = Math.max(...py), roof = Math.min(...py);
      const marks = [...svg.querySelectorAll('rect.bar')].map((b) => +b.getAttribute('y'))
        .concat([...svg.querySelectorAll('circle.pt')].map((p) => +p.getAttribute('cy')));
      if (marks.length && base > roof) {
        own++;
        const reach = (base - Math.min(...marks)) / (base - roof);
        if (reach < 0.2)
          say('squashed: the highest figure reaches ' + Math.round(reach * 100) + '% of the y scale ' +
            Math.min(...yt) + '..' + Math.max(...yt) + ': ' + where);
      }
    }
    // Legends keep clear of the data and of every other text.
    const marks = [...svg.querySelectorAll('.bar, .pt, .cell, .ci, line.mark')];
    for (const g of svg.querySelectorAll('.legend')) {
      const lb = box(g);
      for (const m of marks) if (meets(lb, box(m))) { say('legend over data: ' + where); break; }
      for (const t of texts) if (!g.contains(t) && meets(lb, box(t))) { say('legend over text "' + t.textContent + '": ' + where); break; }
    }
  }
  // Nothing else reaches past the page's right edge either (a wide table is cut off there):
  // the outermost such element is named.
  const wide = [];
  for (const el of document.body.querySelectorAll('section *'))
    if (!(el instanceof SVGElement) && box(el).right > width + 0.5 && !wide.some((w) => w.contains(el))) {
      wide.push(el);
      say('wider than the page (' + Math.round(box(el).right) + ' > ' + width + '): ' + el.tagName.toLowerCase() + ' in ' + name(el));
    }
  // Units in words: GB/s, never the records' GBps.
  for (const el of document.querySelectorAll('section svg text, section h3'))
    if (/\bGBps\b/.test(el.textContent)) say('unit GBps, not GB/s: "' + el.textContent.trim() + '": ' + name(el));
  // Every bar and curve figure has a legend naming its series.
  for (const svg of document.querySelectorAll('svg.bars, svg.lines'))
    if (!svg.querySelector('.legend text')) say('figure without legend: ' + name(svg));
  // In a panel, a series has one colour in every legend.
  for (const p of document.querySelectorAll('.panel')) {
    const col = {};
    for (const g of p.querySelectorAll('.legend'))
      for (const t of g.querySelectorAll('text')) {
        const r = t.previousElementSibling, c = r && r.getAttribute('fill');
        if (t.textContent in col && col[t.textContent] !== c) say('series "' + t.textContent + '" in two colours: ' + name(p));
        col[t.textContent] = c;
      }
  }
  // A figure is drawn only with its data; a panel is never a caption alone.
  for (const svg of document.querySelectorAll('svg.fig'))
    if (!svg.querySelector('.bar, .pt, .cell[data-value]')) say('empty figure: ' + name(svg));
  for (const p of document.querySelectorAll('.panel'))
    if (!p.querySelector('svg.fig, table td, p.nodata')) say('empty panel: ' + name(p));
  // Every heatmap has a colour scale with min, max and unit; better is one colour everywhere.
  const heat = [...document.querySelectorAll('svg.heatmap')];
  const better = new Set();
  for (const h of heat) {
    const s = h.querySelector('.colorscale');
    if (!s) { say('heatmap without colour scale: ' + name(h)); continue; }
    const unit = h.getAttribute('data-unit') || '';
    const lab = [...s.querySelectorAll('text')].map((t) => t.textContent);
    if (!lab.some((x) => /^min /.test(x)) || !lab.some((x) => /^max /.test(x)) || !lab.some((x) => x.includes(unit)))
      say('colour scale without min/max/unit (' + lab.join(' | ') + '): ' + name(h));
    better.add(s.getAttribute('data-better'));
    const cells = [...h.querySelectorAll('.cell[data-value]')];
    const hi = h.getAttribute('data-better-is') === 'higher';
    const best = cells.reduce((a, c) => (!a || (hi ? +c.dataset.value > +a.dataset.value : +c.dataset.value < +a.dataset.value) ? c : a), null);
    if (best && best.getAttribute('fill') !== s.getAttribute('data-better'))
      say('best cell ' + best.dataset.value + ' not the better colour: ' + name(h));
  }
  if (better.size > 1) say('better is ' + better.size + ' colours: ' + [...better].join(' '));
  // Byte axes: KiB/MiB/GiB ticks at powers of two.
  for (const svg of document.querySelectorAll('svg[data-xunit="bytes"]'))
    for (const t of svg.querySelectorAll('.xtick')) {
      if (!/^[0-9]+(\.[0-9]+)? (B|KiB|MiB|GiB)$/.test(t.textContent)) say('byte tick "' + t.textContent + '": ' + name(svg));
      const x = +t.getAttribute('data-x');
      if (!(x > 0) || Math.log2(x) !== Math.round(Math.log2(x))) say('byte tick not a power of two ' + x + ': ' + name(svg));
    }
  // Cache marks sit where the records' level changes: a point of level Lk lies right of the
  // mark of L(k-1) and not right of the mark of Lk; a point in memory right of every mark.
  for (const svg of document.querySelectorAll('svg[data-xunit="bytes"]')) {
    const mk = {};
    for (const m of svg.querySelectorAll('line.mark.cache')) mk[m.dataset.level] = +m.dataset.x;
    const levels = Object.keys(mk).sort();
    if (!levels.length) continue;
    const fig = svg.closest('figure');
    if (!fig || !/working set per thread/.test((fig.querySelector('figcaption') || {}).textContent || ''))
      say('cache marks without a caption: ' + name(svg));
    for (const p of svg.querySelectorAll('.pt[data-level]')) {
      const x = +p.dataset.x, lv = p.dataset.level, k = levels.indexOf(lv);
      const ok = lv === 'memory' ? levels.every((l) => x > mk[l])
        : k < 0 ? true : x <= mk[lv] && (k === 0 || x > mk[levels[k - 1]]);
      if (!ok) say('point ' + x + ' (' + lv + ') on the wrong side of a cache mark: ' + name(svg));
    }
  }
  // 40555 labels are spelled out in words in their section.
  const lab = /^\d+\.\d+\.(r|w|rw)\.(\d+|i|ft)$/;
  for (const sec of document.querySelectorAll('section')) {
    const key = {};
    for (const dt of sec.querySelectorAll('dl.labelkey dt')) key[dt.textContent] = dt.nextElementSibling.textContent;
    for (const el of sec.querySelectorAll('svg text, td')) {
      const s = el.textContent.trim();
      if (!lab.test(s)) continue;
      const w = key[s];
      if (!w || !/^CPU node \d+.* \u2192 (memory node \d+|memory interleaved|first-touch).*, (read|write|read and write)$/.test(w))
        say('label ' + s + ' not explained (' + w + '): #' + sec.id);
    }
  }
  // Myth sections: distinct headings, the claim, the verdict and its figures.
  const heads = new Set();
  for (const v of document.querySelectorAll('#verdicts .verdict')) {
    const h = (v.querySelector('h3') || {}).textContent || '';
    if (heads.has(h)) say('repeated myth heading: ' + h);
    heads.add(h);
    if (!((v.querySelector('.claim') || {}).textContent || '').trim()) say('myth without claim: ' + h);
    if (!/^(holds|does not hold|inconclusive)$/.test(((v.querySelector('.word') || {}).textContent || '').trim()))
      say('myth without verdict: ' + h);
    if (![...v.querySelectorAll('table.figures td')].some((td) => /^[0-9.]+$/.test(td.textContent.trim())))
      say('myth without figures: ' + h);
  }
  // The contents at the top link every section, and every link leads to an element.
  const secs = [...document.querySelectorAll('section[id]')];
  const toc = document.querySelector('nav.toc');
  const linked = new Set();
  for (const a of toc ? toc.querySelectorAll('a') : []) {
    const id = (a.getAttribute('href') || '').replace(/^#/, '');
    linked.add(id);
    if (!id || !document.getElementById(id)) say('contents link "' + a.getAttribute('href') + '" leads to no element');
  }
  for (const s of secs) if (!linked.has(s.id)) say('section #' + s.id + ' not in the contents');
  document.getElementById('layout-count').textContent =
    svgs.length + ' svgs, ' + ntext + ' texts, ' + heat.length + ' heatmaps, ' +
    document.querySelectorAll('.colorscale').length + ' colour scales, ' +
    own + ' own scales, ' + heads.size + ' myths, ' + linked.size + ' contents links';
  document.getElementById('layout-check').textContent = out.join('\n');
})();
