import { ArgumentError } from '@kreplay/native';

/**
 * An ArgumentError of this package: `[snapshot] [component] what. fix.`
 * `what` and `fix` are sentences without their final period.
 */
export function snapshotArgumentError(component: string, argument: string, what: string, fix: string): ArgumentError {
  return new ArgumentError({ packageName: 'snapshot', component, argument, message: `[snapshot] [${component}] ${what}. ${fix}.` });
}
