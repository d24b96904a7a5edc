import { useEffect, useRef, useState } from 'react';
import { company, formatAddress, mapLink } from '@site/ui';
import { contactContent } from '../../content/contact';

const c = contactContent.map;
export const MAP_ZOOM = 18;
export const TILE_URL = 'https://tile.openstreetmap.org/{z}/{x}/{y}.png';

/**
 * - `page`: as the server wrote it (and without JavaScript): the address, hours and a map link;
 * - `offer`: the same, with a button that shows the map;
 * - `loading`, `ready`, `failed`: the visitor asked for the map.
 */
type State = 'page' | 'offer' | 'loading' | 'ready' | 'failed';

const PIN = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 44" width="32" height="44" aria-hidden="true"><path d="M16 0C7.2 0 0 7 0 15.7 0 27.5 16 44 16 44s16-16.5 16-28.3C32 7 24.8 0 16 0z" fill="#1d4ed8"/><circle cx="16" cy="15.5" r="6.5" fill="#fff"/></svg>`;

/**
 * The office on an OpenStreetMap map (Leaflet), drawn only when the visitor asks for it: its tiles
 * come from the OpenStreetMap Foundation's servers, a third party that sees the visitor's address
 * (the privacy notice says so). Until then the box shows the address, the opening hours and a link
 * to the map service; its space is reserved up front so nothing shifts. If the library or the
 * tiles cannot load, the box says so and the address and the link still show.
 */
export function ContactMap() {
  const box = useRef<HTMLDivElement>(null);
  const [state, setState] = useState<State>('page');
  const [asked, setAsked] = useState(false);

  // The button only once this code runs: without it, a button would do nothing.
  useEffect(() => setState((s) => (s === 'page' ? 'offer' : s)), []);

  useEffect(() => {
    if (!asked) return;
    let cancelled = false;
    let destroy: (() => void) | undefined;

    const load = async () => {
      setState('loading');
      try {
        const [{ default: L }] = await Promise.all([
          import('leaflet'),
          import('leaflet/dist/leaflet.css'),
        ]);
        if (cancelled || !box.current) return;
        const map = L.map(box.current, { scrollWheelZoom: false, zoomControl: true }).setView(
          [company.location.lat, company.location.lng],
          MAP_ZOOM,
        );
        let tileErrors = 0;
        const tiles = L.tileLayer(TILE_URL, {
          maxZoom: 19,
          attribution: `<a href="https://www.openstreetmap.org/copyright">${c.attribution}</a>`,
        });
        tiles.on('tileerror', () => {
          tileErrors += 1;
          if (tileErrors >= 4) setState('failed');
        });
        tiles.addTo(map);
        const marker = L.marker([company.location.lat, company.location.lng], {
          title: company.name,
          alt: `${company.name} office`,
          keyboard: true,
          icon: L.divIcon({
            html: PIN,
            className: 'map-pin',
            iconSize: [32, 44],
            iconAnchor: [16, 44],
            popupAnchor: [0, -40],
          }),
        }).addTo(map);
        const popup = document.createElement('div');
        const name = document.createElement('strong');
        name.textContent = company.name;
        const address = document.createElement('p');
        address.textContent = formatAddress();
        popup.append(name, address);
        marker.bindPopup(popup).openPopup();
        destroy = () => map.remove();
        setState((s) => (s === 'failed' ? s : 'ready'));
      } catch (error) {
        console.error('The map could not be loaded:', error);
        if (!cancelled) setState('failed');
      }
    };
    void load();
    return () => {
      cancelled = true;
      destroy?.();
    };
  }, [asked]);

  return (
    <div className="map-frame" data-state={state}>
      <div ref={box} className="map" role="region" aria-label={c.label} />
      {state !== 'ready' && (
        <div className="map__placeholder">
          {state === 'failed' && <p>{c.failed}</p>}
          {state === 'loading' && <p role="status">{c.loading}</p>}
          <p>
            <strong>{company.name}</strong>
            <br />
            {formatAddress()}
            <br />
            {company.hours.label} {company.timeZone.abbreviation}
          </p>
          <p>
            <a href={mapLink()} rel="noopener noreferrer">
              {contactContent.details.mapLink}
            </a>
          </p>
          {(state === 'page' || state === 'offer') && <p className="map__note">{c.note}</p>}
          {state === 'offer' && (
            <p>
              <button
                type="button"
                className="button button--secondary"
                onClick={() => {
                  // The button goes as the map comes: the focus goes to the map (Leaflet makes
                  // it a tab stop), not to the page's top.
                  box.current?.setAttribute('tabindex', '-1');
                  box.current?.focus();
                  setAsked(true);
                }}
              >
                {c.show}
              </button>
            </p>
          )}
        </div>
      )}
    </div>
  );
}
