// The running scene as the rest of the page reaches it: share links (web/src/share), the embed
// (web/src/embed), the editor (web/src/editor) and the export (web/src/export) are handed this small
// interface, never the Playground itself — load a scenario, apply settings, play and pause, move to an
// impact, the state shown, and its events; for the export, the scene drawn at a resolution of its own and
// the plots as data; and, for the embed's compact layout, where its parts are.

/**
 * @typedef {Object} PlaygroundApi
 * @property {(source: {builtin?: string, document?: object}, options?: {overrides?: object, play?: boolean}) => Promise<boolean>} load
 *   a built-in scenario by id, or a scenario document; resolves true when it runs (otherwise the previous one
 *   keeps running and the message area says why)
 * @property {(settings: {e?: number, e_i?: object, mu?: number|'stick', nu?: number|null, speed?: number,
 *   trails?: boolean, matrix?: string, endMode?: string}) => Promise<boolean>} applySettings
 *   as the controls would; false when the engine refused one (the message area says why)
 * @property {(run: {changes?: object[], t?: number, impacts?: number, horizon?: number, horizonImpacts?: number},
 *   options?: {onProgress?: (fraction: number) => void}) => Promise<string[]>} reproduce
 *   the run as viewState describes it (changes at their moments, the horizon, the moment shown); notices
 * @property {() => void} play
 * @property {() => void} pause
 * @property {() => Promise<void>} reset
 * @property {(index: number|null) => void} select  the impact the panels show (null: the latest)
 * @property {boolean} playing
 * @property {() => object} viewState  the state shown (Playground.viewState)
 * @property {() => ({index: number, record: object}|null)} shownImpact  the impact the panels show
 * @property {(options?: {pixelRatio?: number}) => {canvas: HTMLCanvasElement, pixelRatio: number}} snapshotScene
 *   what the scene draws now, as a 2D canvas drawn at `pixelRatio` image pixels per CSS pixel (default: the
 *   screen's; lowered to what the GPU can draw), and the ratio used; the scene on screen is put back as it was
 * @property {() => import('./plot-support.js').PlotData} energyPlotData  the energy plot's curves, impact
 *   lines, time shown and size on screen
 * @property {() => import('./plot-support.js').PlotData|null} chosenPlotData  the same of the Plot panel's
 *   quantity (its label the title); null while there is nothing to plot
 * @property {(type: 'loaded'|'impacts'|'shown'|'playing', listener: Function) => () => void} on
 * @property {EmbedLayout} layout
 */

/**
 * @typedef {Object} EmbedLayout
 * @property {() => {restitution: HTMLElement, energy: HTMLElement, log: HTMLElement, impact: HTMLElement}} panels
 *   the playground's panels, to be laid out by the embed
 * @property {(node: HTMLElement) => void} underScene  puts `node` right under the scene's figure
 * @property {(node: HTMLElement) => void} besideScene  puts `node` beside the scene (after the stage)
 * @property {HTMLElement} sceneElement  the scene (its canvas and tools)
 * @property {HTMLCanvasElement} sceneCanvas
 * @property {(policy: (event: WheelEvent) => boolean) => void} setWheelPolicy  whether a wheel event zooms
 */

/**
 * The interface of `playground`.
 * @param {import('./playground.js').Playground} playground
 * @returns {PlaygroundApi}
 */
export function playgroundApi(playground) {
  return Object.freeze({
    load: (source, options) => (source.document !== undefined
      ? playground.loadDocument(source.document, options)
      : playground.load(source.builtin, options)),
    applySettings: (settings) => playground.applySettings(settings),
    reproduce: (run, options) => playground.reproduce(run, options),
    play: () => playground.play(),
    pause: () => playground.pause(),
    reset: () => playground.reset(),
    select: (index) => playground.select(index),
    get playing() { return playground.playing; },
    viewState: () => playground.viewState(),
    shownImpact: () => playground.shownImpact(),
    snapshotScene: (options) => playground.scene.snapshot(options),
    energyPlotData: () => playground.energy.data(),
    chosenPlotData: () => playground.plot.data(),
    on: (type, listener) => playground.on(type, listener),
    layout: Object.freeze({
      panels: () => ({ restitution: playground.restitution.element, energy: playground.energy.element,
        log: playground.log.element, impact: playground.impactView }),
      underScene: (node) => playground.figure.after(node),
      besideScene: (node) => playground.element.append(node),
      sceneElement: playground.scene.element,
      sceneCanvas: playground.scene.canvas,
      setWheelPolicy: (policy) => playground.scene.setWheelPolicy(policy),
    }),
  });
}
