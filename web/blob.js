"use strict";
// The voice blob: an organic shape that breathes while Earshot listens, swells with the
// microphone while the person speaks and with the speaker while Earshot speaks, and shrinks to
// a pulsing dot while it thinks. Self-contained: copy this file to draw the blob elsewhere.
//
//   const blob = createBlob(svgElement, pathElement);
//   blob.setMode("hearing", { muted: false });        // the voice-UI state, or "offline"
//   blob.setLevel("mic", 0.48, [0.36, 0.48, 0.51, 0.32]); // from a `level` event
//
// Every change goes through springs, stepped on requestAnimationFrame, so nothing jumps. The
// drawn scale is kept in `svg.dataset.scale` (1 = resting size) for tests and assistive tech.
// With prefers-reduced-motion the shape stays a circle and the level shows as a gentle step
// of size and opacity instead.

/** A damped spring pulled towards `target`: `frequency` in Hz, `damping` 1 = critical. */
function makeSpring(value, frequency = 2.2, damping = 0.8) {
  return { value, velocity: 0, target: value, frequency, damping };
}

function stepSpring(spring, dt) {
  const omega = 2 * Math.PI * spring.frequency;
  const pull = omega * omega * (spring.target - spring.value);
  const drag = 2 * spring.damping * omega * spring.velocity;
  spring.velocity += (pull - drag) * dt; // semi-implicit Euler: stable for small steps
  spring.value += spring.velocity * dt;
}

function createBlob(svg, path) {
  const RADIUS = 58;          // resting radius in the SVG's -100…100 view box
  const POINTS = 12;          // points around the outline, joined by a smooth curve
  const HARMONICS = [2, 3, 4, 5]; // one ripple per level band, low band → slow, broad ripple
  const RIPPLE_DEPTH = [0.07, 0.055, 0.04, 0.03]; // how far each band's ripple bends the outline
  const reduceMotion = window.matchMedia("(prefers-reduced-motion: reduce)");

  const levels = {
    mic: { level: 0, bands: [0, 0, 0, 0], at: 0 },
    speaker: { level: 0, bands: [0, 0, 0, 0], at: 0 },
  };
  let mode = "offline";
  let muted = false;
  const scale = makeSpring(0.85);
  const ripples = HARMONICS.map(() => makeSpring(0, 1.6, 0.9));
  const phases = HARMONICS.map((_, i) => i * 1.7);
  let lastTime = performance.now();
  let shownScale = "";

  /** A level reading decays once readings stop coming (e.g. the source went quiet). */
  function current(source) {
    const reading = levels[source];
    const age = (performance.now() - reading.at) / 1000;
    const fade = age < 0.25 ? 1 : Math.exp(-(age - 0.25) * 8);
    return { level: reading.level * fade, bands: reading.bands.map((band) => band * fade) };
  }

  /** What the springs aim for now: the scale, and how much each ripple moves. */
  function targets(time) {
    const listeningTo = mode === "speaking" ? "speaker" : "mic";
    const heard = (mode === "listening" || mode === "hearing") && muted ? { level: 0, bands: [0, 0, 0, 0] } : current(listeningTo);
    switch (mode) {
      case "listening":
      case "hearing":
      case "speaking": {
        const breathing = mode === "listening" ? 0.015 * Math.sin(time * 1.4) : 0;
        return {
          scale: Math.min(1.45, 1 + 0.5 * heard.level + breathing),
          ripples: heard.bands.map((band, i) => 0.012 + RIPPLE_DEPTH[i] * band),
          speed: 0.35 + 1.8 * heard.level,
          level: heard.level,
        };
      }
      case "thinking": // the pulsing dot
        return { scale: 0.3 + 0.05 * Math.sin(time * 5.2), ripples: [0, 0, 0, 0], speed: 0.2, level: 0 };
      default: // idle (voice mode off) or offline: small and still
        return { scale: 0.85, ripples: [0.012, 0.01, 0, 0], speed: 0.15, level: 0 };
    }
  }

  /** A closed Catmull-Rom curve through the points, as cubic Béziers. */
  function outline(points) {
    const n = points.length;
    const at = (i) => points[(i + n) % n];
    let d = `M${at(0)[0].toFixed(2)} ${at(0)[1].toFixed(2)}`;
    for (let i = 0; i < n; i++) {
      const [p0, p1, p2, p3] = [at(i - 1), at(i), at(i + 1), at(i + 2)];
      const c1 = [p1[0] + (p2[0] - p0[0]) / 6, p1[1] + (p2[1] - p0[1]) / 6];
      const c2 = [p2[0] - (p3[0] - p1[0]) / 6, p2[1] - (p3[1] - p1[1]) / 6];
      d += `C${c1[0].toFixed(2)} ${c1[1].toFixed(2)} ${c2[0].toFixed(2)} ${c2[1].toFixed(2)} ${p2[0].toFixed(2)} ${p2[1].toFixed(2)}`;
    }
    return d + "Z";
  }

  function drawMorphing(dt, time) {
    const aim = targets(time);
    scale.target = aim.scale;
    ripples.forEach((ripple, i) => { ripple.target = aim.ripples[i]; });
    // Step the springs in slices of at most 1/120 s so a slow frame cannot make them unstable.
    for (let left = dt; left > 0; left -= 1 / 120) {
      const slice = Math.min(left, 1 / 120);
      stepSpring(scale, slice);
      ripples.forEach((ripple) => stepSpring(ripple, slice));
    }
    phases.forEach((_, i) => { // neighbouring ripples turn opposite ways, the finer ones faster
      phases[i] += dt * aim.speed * (1 + 0.35 * i) * (i % 2 ? -1 : 1);
    });
    const points = [];
    for (let p = 0; p < POINTS; p++) {
      const angle = (p / POINTS) * 2 * Math.PI;
      let r = 1;
      HARMONICS.forEach((k, i) => { r += ripples[i].value * Math.sin(k * angle + phases[i]); });
      r *= RADIUS * Math.max(0.05, scale.value);
      points.push([r * Math.cos(angle), r * Math.sin(angle)]);
    }
    path.setAttribute("d", outline(points));
    path.style.transform = "";
    path.style.opacity = "";
    return scale.value;
  }

  /** Reduced motion: a still circle; the level moves it by one of four gentle steps. */
  function drawStepped(time) {
    const aim = targets(0);
    let step = aim.scale;
    if (mode === "listening" || mode === "hearing" || mode === "speaking") {
      const level = aim.level;
      step = level < 0.15 ? 1 : level < 0.4 ? 1.15 : level < 0.7 ? 1.28 : 1.4;
    }
    if (!path.dataset.circle) {
      path.setAttribute("d", `M${RADIUS} 0A${RADIUS} ${RADIUS} 0 1 1 ${-RADIUS} 0A${RADIUS} ${RADIUS} 0 1 1 ${RADIUS} 0Z`);
      path.dataset.circle = "yes";
    }
    path.style.transform = `scale(${step})`; // eased by a short CSS transition
    path.style.opacity = mode === "thinking" ? "0.7" : String(0.75 + (step - 1) * 0.8);
    scale.value = step;
    scale.velocity = 0;
    return step;
  }

  function frame(now) {
    const dt = Math.min(0.1, Math.max(0, (now - lastTime) / 1000));
    lastTime = now;
    const time = now / 1000;
    let drawn;
    if (reduceMotion.matches) {
      drawn = drawStepped(time);
    } else {
      delete path.dataset.circle;
      drawn = drawMorphing(dt, time);
    }
    const text = drawn.toFixed(3);
    if (text !== shownScale) {
      svg.dataset.scale = text;
      shownScale = text;
    }
    requestAnimationFrame(frame);
  }
  requestAnimationFrame(frame);

  return {
    /** `state` is the voice-UI state (idle/listening/hearing/thinking/speaking) or "offline". */
    setMode(state, options = {}) {
      mode = state;
      muted = Boolean(options.muted);
    },
    /** A `level` event: `source` is "mic" or "speaker", `level` and `bands` 0…1. */
    setLevel(source, level, bands) {
      const reading = levels[source];
      if (!reading) return;
      reading.level = Number(level) || 0;
      reading.bands = Array.isArray(bands) && bands.length === 4 ? bands.map(Number) : [level, level, level, level];
      reading.at = performance.now();
    },
  };
}
