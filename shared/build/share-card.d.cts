/** Types of share-card.cjs, the build-time share-card renderer. */
export interface ShareCardContent {
  title: string;
  group: string;
  company: string;
  footer?: string;
}
export declare const SHARE_CARD_WIDTH: 1200;
export declare const SHARE_CARD_HEIGHT: 630;
/** Renders one card to PNG, without a cache. */
export declare function renderShareCard(card: ShareCardContent): Promise<Buffer>;
/** Renders one card to PNG, or reads it from the cache (`false`: no cache). */
export declare function shareCard(
  card: ShareCardContent,
  options?: { cacheDir?: string | false },
): Promise<Buffer>;
/** `/services/custom-dev/ios` -> `services-custom-dev-ios`; `/` -> `home`. */
export declare function cardSlug(pagePath: string): string;
/** Width and height of a PNG, from its IHDR chunk. */
export declare function pngSize(png: Buffer): { width: number; height: number };
