// A segmented control: a fieldset of native radio buttons (arrow keys move the choice, as browsers do for
// radio groups), styled as a row of buttons.
import { el, uniqueId } from './dom.js';

/**
 * @param {{legend: string, options: {value: string, label: string|Node, name?: string}[], value: string,
 *          onChange: (value: string) => void, hideLegend?: boolean}} options  `name`: the option's accessible
 *   name when its label is not plain text (a formula)
 */
export function segmented({ legend, options, value, onChange, hideLegend = true }) {
  const name = uniqueId('segmented');
  const fieldset = el('fieldset', { class: 'segmented' },
    el('legend', { class: hideLegend ? 'visually-hidden' : null, text: legend }),
    options.map((option) => {
      const input = el('input', { type: 'radio', name, value: option.value, checked: option.value === value,
        'aria-label': option.name ?? (typeof option.label === 'string' ? option.label : option.value) });
      input.addEventListener('change', () => { if (input.checked) onChange(option.value); });
      return el('label', { class: 'segmented-option' }, input, el('span', {}, option.label));
    }));
  return {
    element: fieldset,
    /** Selects `value` without calling onChange. */
    set(next) {
      for (const input of fieldset.querySelectorAll('input')) input.checked = input.value === next;
    },
  };
}
