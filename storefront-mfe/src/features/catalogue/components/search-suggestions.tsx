import { useId, useState, type KeyboardEvent } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { catalogApi } from '@motoparts/state';
import { useDebounced } from '../catalogue-hooks';

/** Letters typed before parts are suggested. */
export const SUGGEST_FROM = 2;
/** How many part names the list offers. */
const SUGGESTIONS = 5;
/** The pause in typing before suggestions are asked for (shorter than the search's own). */
const SUGGEST_DEBOUNCE_MS = 150;

/** Where a suggested part opens: its own page, as a catalogue card does. */
const partHref = (id: string) => `/parts/${id}`;

/**
 * The catalogue's search box as a WAI-ARIA combobox: from two letters typed it offers a few part
 * names (the API's relevance order, typos forgiven) in a listbox, each a link to the part. Arrow
 * keys move through them, Enter opens the one chosen, Escape closes the list; without a choice
 * Enter submits the search as before. Hand-written: the pattern is one input and one list here,
 * and the combobox libraries bring their own state machines and rendering for far more.
 */
export function SearchSuggestions({
  inputId,
  value,
  maxLength,
  onChange,
}: {
  inputId: string;
  value: string;
  maxLength: number;
  onChange: (value: string) => void;
}) {
  const listId = useId();
  const navigate = useNavigate();
  const [focused, setFocused] = useState(false);
  const [dismissed, setDismissed] = useState(false);
  const [active, setActive] = useState(-1);
  const typed = useDebounced(value.trim(), SUGGEST_DEBOUNCE_MS);
  const asked = typed.length >= SUGGEST_FROM;
  const { data } = catalogApi.useGetPartsQuery({ q: typed, limit: SUGGESTIONS }, { skip: !asked });
  // Only the suggestions for what the box holds now (not those of a shorter, older text).
  const parts = asked && value.trim().length >= SUGGEST_FROM ? (data?.parts ?? []) : [];
  const open = focused && !dismissed && parts.length > 0;
  const optionId = (i: number) => `${listId}-option-${i}`;

  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'Escape' && open) {
      e.preventDefault();
      setDismissed(true);
      setActive(-1);
    } else if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      if (parts.length === 0) return;
      e.preventDefault();
      setDismissed(false);
      const last = parts.length - 1;
      setActive((i) => (e.key === 'ArrowDown' ? (i >= last ? 0 : i + 1) : i <= 0 ? last : i - 1));
    } else if (e.key === 'Enter') {
      const chosen = open ? parts[active] : undefined;
      if (chosen) {
        e.preventDefault();
        navigate(partHref(chosen._id));
      } else {
        // No suggestion chosen: the form's own submit searches, and the results are what was
        // asked for (suggestions still on their way stay closed too, until the next letter).
        setDismissed(true);
      }
    }
  };

  return (
    <SearchCombobox
      inputId={inputId}
      listId={listId}
      value={value}
      maxLength={maxLength}
      parts={open ? parts : []}
      activeId={open && active >= 0 && active < parts.length ? optionId(active) : undefined}
      optionId={optionId}
      active={active}
      onChange={(text) => {
        onChange(text);
        setDismissed(false);
        setActive(-1);
      }}
      onFocus={() => setFocused(true)}
      onBlur={() => setFocused(false)}
      onKeyDown={onKeyDown}
    />
  );
}

const ignore = () => undefined;

/**
 * The combobox's markup: the box and its list (open while it holds `parts`). Without handlers
 * (the catalogue's first screen, rendered at build time) it is the box at rest, empty.
 */
export function SearchCombobox({
  inputId,
  listId,
  value,
  maxLength,
  parts = [],
  activeId,
  optionId = ignore,
  active = -1,
  onChange = ignore,
  onFocus,
  onBlur,
  onKeyDown,
}: {
  inputId: string;
  listId: string;
  value: string;
  maxLength: number;
  parts?: readonly { _id: string; name: string }[];
  activeId?: string | undefined;
  optionId?: (i: number) => string | undefined;
  active?: number;
  onChange?: (value: string) => void;
  onFocus?: () => void;
  onBlur?: () => void;
  onKeyDown?: (e: KeyboardEvent<HTMLInputElement>) => void;
}) {
  const open = parts.length > 0;
  return (
    <div className="search-combobox">
      <input
        id={inputId}
        type="search"
        name="q"
        role="combobox"
        aria-autocomplete="list"
        aria-expanded={open}
        aria-controls={listId}
        aria-activedescendant={activeId}
        value={value}
        maxLength={maxLength}
        placeholder="Name or description"
        autoComplete="off"
        onChange={(e) => onChange(e.target.value)}
        onFocus={onFocus}
        onBlur={onBlur}
        onKeyDown={onKeyDown}
      />
      <ul
        id={listId}
        role="listbox"
        aria-label="Suggested parts"
        className="search-suggestions card"
        hidden={!open}
        // A press on a suggestion must not blur the box first (that would close the list under it).
        onMouseDown={(e) => e.preventDefault()}
      >
        {parts.map((part, i) => (
          <li key={part._id} id={optionId(i)} role="option" aria-selected={i === active}>
            <Link to={partHref(part._id)} tabIndex={-1}>
              {part.name}
            </Link>
          </li>
        ))}
      </ul>
    </div>
  );
}
