/** Shown where an image URL does not load: a light grey tile with a picture outline. */
export const IMAGE_PLACEHOLDER = `data:image/svg+xml;utf8,${encodeURIComponent(
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"><rect width="24" height="24" fill="#f0f0f5"/>' +
    '<path d="M6 16l3.5-4 2.5 3 2-2.5L18 16z" fill="#c4c4d4"/><circle cx="9" cy="9" r="1.5" fill="#c4c4d4"/></svg>',
)}`;
