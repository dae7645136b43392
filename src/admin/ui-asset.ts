/** One file of the inspector, as served: its bytes and content type. */
export interface UiAsset {
  bytes: Buffer;
  type: string;
}
