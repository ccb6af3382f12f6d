/**
 * The message form of this package: `[native] [component] what happened. how to fix it.`
 * `what` and `fix` are sentences without their final period.
 * @internal
 */
export function nativeMessage(component: string, what: string, fix: string): string {
  return `[native] [${component}] ${what}. ${fix}.`;
}
