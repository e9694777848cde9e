package io.github.delayqueue.autoconfigure;

import java.beans.PropertyDescriptor;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import org.springframework.beans.BeanUtils;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.core.MethodParameter;
import org.springframework.core.ResolvableType;

/**
 * The keys a properties class declares, read from its JavaBean properties so that a
 * property added to the class is known without a list kept by hand. Nested classes of
 * this project are groups; maps take any key below them; collections take an index.
 *
 * @author delayqueue contributors
 */
final class KnownProperties {

	private static final String GROUP_PACKAGE = "io.github.delayqueue.";

	private final Class<?> type;

	private final List<String> keys = new ArrayList<>();

	/**
	 * Read the keys of a properties class.
	 * @param type the class
	 */
	KnownProperties(Class<?> type) {
		this.type = type;
		collectKeys(ResolvableType.forClass(type), "");
	}

	/**
	 * Return every key of the class, in kebab case, relative to the class; a map is given
	 * as {@code name.*}.
	 * @return the keys
	 */
	List<String> keys() {
		return this.keys;
	}

	/**
	 * Whether the elements of a name from an index on name a property of the class, or a
	 * group of them.
	 * @param name the name
	 * @param from the index of the first element relative to the class
	 * @param dashesSplit whether an element may have been split at the dashes of a
	 * property's name, as environment variables are ({@code KEY_PREFIX} for
	 * {@code key-prefix})
	 * @return whether the name is known
	 */
	boolean isKnown(ConfigurationPropertyName name, int from, boolean dashesSplit) {
		return isKnown(ResolvableType.forClass(this.type), name, from, dashesSplit);
	}

	/**
	 * Return the key closest to a given one if it is close enough to be a typo of it.
	 * @param key a key, in the same form as {@link #keys()}
	 * @return the closest key, or {@code null}
	 */
	@Nullable String closest(String key) {
		Match match = closestMatch(key);
		return (match != null) ? match.key() : null;
	}

	/**
	 * Return the key closest to a given one, and how far it is, if it is close enough to
	 * be a typo of it.
	 * @param key a key, in the same form as {@link #keys()}
	 * @return the closest key and its distance, or {@code null}
	 */
	@Nullable Match closestMatch(String key) {
		Match best = null;
		int bestDistance = Math.max(2, key.length() / 8) + 1;
		for (String candidate : this.keys) {
			int distance = distance(key,
					candidate.endsWith(".*") ? candidate.substring(0, candidate.length() - 2) : candidate);
			if (distance < bestDistance) {
				best = new Match(candidate, distance);
				bestDistance = distance;
			}
		}
		return best;
	}

	/**
	 * Describe the deepest group a name lies in and the keys it takes, for a message
	 * about a name that is not known.
	 * @param prefix the key of the class itself
	 * @param name the name
	 * @param from the index of the first element relative to the class
	 * @return a description such as {@code delayqueue.scheduler takes enabled, ...}
	 */
	String describeGroupOf(String prefix, ConfigurationPropertyName name, int from) {
		ResolvableType group = ResolvableType.forClass(this.type);
		StringBuilder path = new StringBuilder(prefix);
		for (int i = from; i < name.getNumberOfElements(); i++) {
			PropertyDescriptor nested = null;
			for (PropertyDescriptor property : properties(group.resolve(Object.class))) {
				if (matchedElements(name, i, property.getName().toLowerCase(Locale.ROOT), false) == 1
						&& isGroup(propertyType(group, property).resolve(Object.class))) {
					nested = property;
				}
			}
			if (nested == null) {
				break;
			}
			group = propertyType(group, nested);
			path.append('.').append(kebab(nested.getName()));
		}
		List<String> keys = new ArrayList<>();
		for (PropertyDescriptor property : properties(group.resolve(Object.class))) {
			Class<?> type = propertyType(group, property).resolve(Object.class);
			boolean hasKeysBelow = isGroup(type) || Map.class.isAssignableFrom(type);
			keys.add(kebab(property.getName()) + (hasKeysBelow ? ".*" : ""));
		}
		return path + " takes " + String.join(", ", keys);
	}

	private static boolean isKnown(ResolvableType type, ConfigurationPropertyName name, int from, boolean dashesSplit) {
		if (from == name.getNumberOfElements()) {
			// The name of a group is no typo; a value given to it is Boot's binder's to
			// refuse.
			return true;
		}
		if (name.isNumericIndex(from)) {
			return false;
		}
		for (PropertyDescriptor property : properties(type.resolve(Object.class))) {
			int matched = matchedElements(name, from, property.getName().toLowerCase(Locale.ROOT), dashesSplit);
			if (matched > 0 && isKnownBelow(propertyType(type, property), name, from + matched, dashesSplit)) {
				return true;
			}
		}
		return false;
	}

	private static boolean isKnownBelow(ResolvableType type, ConfigurationPropertyName name, int from,
			boolean dashesSplit) {
		Class<?> resolved = type.resolve(Object.class);
		if (Map.class.isAssignableFrom(resolved)) {
			return true;
		}
		if (Collection.class.isAssignableFrom(resolved) || resolved.isArray()) {
			if (from == name.getNumberOfElements()) {
				return true;
			}
			ResolvableType element = resolved.isArray() ? type.getComponentType() : type.asCollection().getGeneric();
			return name.isNumericIndex(from) && (isGroup(element.resolve(Object.class))
					? isKnown(element, name, from + 1, dashesSplit) : from + 1 == name.getNumberOfElements());
		}
		if (isGroup(resolved)) {
			return isKnown(type, name, from, dashesSplit);
		}
		return from == name.getNumberOfElements();
	}

	// How many elements from 'from' spell the property's name in uniform form (lower
	// case, no dashes): one, or several when an environment variable split it at its
	// dashes.
	private static int matchedElements(ConfigurationPropertyName name, int from, String uniform, boolean dashesSplit) {
		StringBuilder spelled = new StringBuilder();
		for (int i = from; i < name.getNumberOfElements() && !name.isNumericIndex(i); i++) {
			spelled.append(name.getElement(i, ConfigurationPropertyName.Form.UNIFORM));
			if (spelled.toString().equals(uniform)) {
				return i - from + 1;
			}
			if (!dashesSplit || !uniform.startsWith(spelled.toString())) {
				return 0;
			}
		}
		return 0;
	}

	private void collectKeys(ResolvableType type, String prefix) {
		for (PropertyDescriptor property : properties(type.resolve(Object.class))) {
			String key = prefix + kebab(property.getName());
			ResolvableType propertyType = propertyType(type, property);
			Class<?> resolved = propertyType.resolve(Object.class);
			if (Map.class.isAssignableFrom(resolved)) {
				this.keys.add(key + ".*");
			}
			else if (isGroup(resolved)) {
				collectKeys(propertyType, key + ".");
			}
			else {
				this.keys.add(key);
			}
		}
	}

	// In the order the fields are declared, which is the order the documentation uses.
	private static List<PropertyDescriptor> properties(Class<?> type) {
		List<PropertyDescriptor> properties = new ArrayList<>();
		for (PropertyDescriptor property : BeanUtils.getPropertyDescriptors(type)) {
			if (property.getReadMethod() != null && !"class".equals(property.getName())) {
				properties.add(property);
			}
		}
		List<String> fields = Arrays.stream(type.getDeclaredFields()).map(Field::getName).toList();
		properties.sort(Comparator.comparingInt((property) -> {
			int index = fields.indexOf(property.getName());
			return (index >= 0) ? index : Integer.MAX_VALUE;
		}));
		return properties;
	}

	private static ResolvableType propertyType(ResolvableType owner, PropertyDescriptor property) {
		Method getter = property.getReadMethod();
		return ResolvableType.forMethodParameter(new MethodParameter(getter, -1), owner);
	}

	// Our own classes are groups of properties; anything else (String, Duration,
	// DataSize, enums...) is converted from a single value.
	private static boolean isGroup(Class<?> type) {
		return type.getName().startsWith(GROUP_PACKAGE) && !type.isEnum();
	}

	private static String kebab(String propertyName) {
		StringBuilder kebab = new StringBuilder();
		for (char c : propertyName.toCharArray()) {
			if (Character.isUpperCase(c)) {
				kebab.append('-').append(Character.toLowerCase(c));
			}
			else {
				kebab.append(c);
			}
		}
		return kebab.toString();
	}

	/**
	 * Return whether one word is close enough to another to be a typo of it, as
	 * {@link #closestMatch(String)} judges keys.
	 * @param word the word as written
	 * @param intended the word it may stand for
	 * @return whether it is a typo of it
	 */
	static boolean isTypo(String word, String intended) {
		return !word.equals(intended) && distance(word, intended) <= Math.max(2, word.length() / 8);
	}

	private static int distance(String a, String b) {
		int[] previous = new int[b.length() + 1];
		int[] current = new int[b.length() + 1];
		for (int j = 0; j <= b.length(); j++) {
			previous[j] = j;
		}
		for (int i = 1; i <= a.length(); i++) {
			current[0] = i;
			for (int j = 1; j <= b.length(); j++) {
				int substitution = previous[j - 1] + ((a.charAt(i - 1) == b.charAt(j - 1)) ? 0 : 1);
				current[j] = Math.min(substitution, Math.min(previous[j], current[j - 1]) + 1);
			}
			int[] swap = previous;
			previous = current;
			current = swap;
		}
		return previous[b.length()];
	}

	/**
	 * A known key close to another one.
	 *
	 * @param key the known key
	 * @param distance how many characters must change to turn one into the other
	 */
	record Match(String key, int distance) {

	}

}
