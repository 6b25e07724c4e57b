/** A feature's share of the OpenAPI document: the document is assembled from the features' parts (see FEATURES). */
export interface OpenApiPart {
  readonly tags?: readonly { readonly name: string; readonly description: string }[];
  /** By path template, relative to the API's base paths. */
  readonly paths?: Readonly<Record<string, object>>;
  /** Component schemas, by the name `ref` points at. */
  readonly schemas?: Readonly<Record<string, object>>;
  readonly webhooks?: Readonly<Record<string, object>>;
}
