class FragmentCache
  def compute_key(record, locale)
    [record.cache_key_with_version, locale, 'v2'].join('/')
  end

  def fetch(record, locale, &block)
    Rails.cache.fetch(compute_key(record, locale), expires_in: 1.hour, &block)
  end
end

cache = FragmentCache.new
cache.compute_key(Product.first, :en)
