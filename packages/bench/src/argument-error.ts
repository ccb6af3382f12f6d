import { ArgumentError } from '@kreplay/native';

/**
 * An ArgumentError of this package: `[bench] [component] what. fix.`
 * `what` and `fix` are sentences without their final period.
 */
export function benchArgumentError(component: string, argument: string, what: string, fix: string): ArgumentError {
  return new ArgumentError({ packageName: 'bench', component, argument, message: `[bench] [${component}] ${what}. ${fix}.` });
}
