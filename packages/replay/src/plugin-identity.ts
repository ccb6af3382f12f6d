/** Which plug-in a hook belongs to, for error messages. */
export interface PluginIdentity {
  readonly kind: 'strategy' | 'pass provider';
  readonly name: string;
}
